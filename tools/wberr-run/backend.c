// SPDX-License-Identifier: GPL-2.0
/* The real drivers behind an instance; see backend.h. */
#include "backend.h"
#include "crosscheck.h"
#include "sys.h"
#include "wb_dm.h"
#include "wb_names.h"
#include "wb_sys.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define SD_GLOB "/sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*:*:*:*/block/*"
#define SD_DEBUGFS "/sys/kernel/debug/scsi_debug"
#define NV_LINEAR "wberr-nvme"
#define TH_META "wberr-tmeta"
#define TH_DATA "wberr-tdata"
#define TH_POOL "wberr-tpool"
#define TH_THIN "wberr-thin"
#define TH_META_SECTORS 16384u		/* 8 MiB of pool metadata */
#define TH_BLOCK_SECTORS 128u		/* 64 KiB pool blocks */
/* nvme: "until removed" is a times= the run never reaches, so the count
 * read back at disarm says how many commands were failed */
#define NV_UNLIMITED (1L << 30)

/* scsi_debug as loaded in this run: its size, disk and h:c:t:l */
static struct {
	unsigned size_mb;
	char disk[32], hctl[32];
} sd;

static int dev_number(const char *path, uint32_t *maj, uint32_t *min)
{
	struct stat sb;

	if (stat(path, &sb) || !S_ISBLK(sb.st_mode))
		return -1;
	*maj = major(sb.st_rdev);
	*min = minor(sb.st_rdev);
	return 0;
}

static int put(const char *dir, const char *file, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int put(const char *dir, const char *file, const char *fmt, ...)
{
	char path[384], val[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return wb_write_file(path, val);
}

static long get_long(const char *dir, const char *file)
{
	char path[384], *text;
	long v;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	text = wb_read_file(path, NULL);
	v = text ? strtol(text, NULL, 0) : 0;
	free(text);
	return v;
}

/* a module of the image: ours in $WBERR_MODDIR (insmod), else modprobe */
static int load_module(const char *name, const char *params, char *out, size_t len)
{
	const char *dir = getenv("WBERR_MODDIR");
	char ko[256];

	snprintf(ko, sizeof(ko), "%s/%s.ko", dir && *dir ? dir : "/opt/wberr/modules", name);
	if (!access(ko, F_OK))
		return run_cmd(out, len, "insmod %s %s", ko, params);
	return run_cmd(out, len, "modprobe %s %s", name, params);
}

/* ---- scsi_debug -------------------------------------------------------- */

static void sd_unload(void)
{
	char out[512];

	if (!sd.size_mb)
		return;
	if (run_cmd(out, sizeof(out), "rmmod scsi_debug"))
		fprintf(stderr, "wberr-run: rmmod scsi_debug: %s\n", out);
	memset(&sd, 0, sizeof(sd));
}

/* its disk, once the scan has made it: 0, or -1 after 5 s */
static int sd_find(void)
{
	glob_t g;
	int rc = -1;

	for (int i = 0; i < 50 && rc; i++) {
		if (i)
			usleep(100000);
		if (glob(SD_GLOB, 0, NULL, &g))
			continue;
		if (g.gl_pathc == 1) {
			char *p = g.gl_pathv[0], *blk = strstr(p, "/block/"), *h;

			snprintf(sd.disk, sizeof(sd.disk), "/dev/%s", blk + 7);
			*blk = 0;
			h = strrchr(p, '/');
			snprintf(sd.hctl, sizeof(sd.hctl), "%s", h + 1);
			rc = access(sd.disk, F_OK) ? -1 : 0;
		}
		globfree(&g);
	}
	return rc;
}

/*
 * sd, the driver that makes scsi_debug's LUN a disk: built into the
 * project's kernel, a module on Debian's (sd_mod), which udev loads on a
 * distribution and nothing does in the guest.  Without it scsi_debug's
 * device never gets a block device and every instance waits out
 * sd_find() in vain.
 */
static int sd_driver(char *why, size_t len)
{
	char out[512];

	if (!access("/sys/bus/scsi/drivers/sd", F_OK) || !load_module("sd_mod", "", out, sizeof(out)))
		return 0;
	out[strcspn(out, "\n")] = 0;
	snprintf(why, len, "no SCSI disk driver (CONFIG_BLK_DEV_SD): %.300s", out);
	return -1;
}

static int sd_load(unsigned size_mb, char *why, size_t len)
{
	char params[128], out[1024], ctl[128];

	if (sd.size_mb == size_mb)
		return 0;
	sd_unload();
	if (sd_driver(why, len))
		return -1;
	snprintf(params, sizeof(params), "dev_size_mb=%u delay=0 max_luns=1 num_tgts=1 add_host=1", size_mb);
	if (load_module("scsi_debug", params, out, sizeof(out))) {
		out[strcspn(out, "\n")] = 0;
		snprintf(why, len, "no scsi_debug module (CONFIG_SCSI_DEBUG): %.300s", out);
		return -1;
	}
	sd.size_mb = size_mb;
	if (sd_find()) {
		snprintf(why, len, "scsi_debug loaded but no disk appeared under %s", SD_GLOB);
		sd_unload();
		return -1;
	}
	snprintf(ctl, sizeof(ctl), "%s/%s/error", SD_DEBUGFS, sd.hctl);
	if (access(ctl, W_OK)) {
		snprintf(why, len, "scsi_debug has no per-device error injection (%s: %s; Linux 6.7 and later)",
			 ctl, strerror(errno));
		sd_unload();
		return -1;
	}
	return 0;
}

/* the SCSI opcodes sd sends for the op classes @ops (sd.c sd_setup_rw10_cmnd,
 * sd_setup_rw16_cmnd, sd_setup_flush_cmnd) */
static int sd_opcodes(unsigned int ops, unsigned int *op)
{
	int n = 0;

	if (ops & WB_OP_READ) {
		op[n++] = 0x28;
		op[n++] = 0x88;
	}
	if (ops & (WB_OP_WRITE | WB_OP_FUA)) {
		op[n++] = 0x2a;
		op[n++] = 0x8a;
	}
	if (ops & WB_OP_FLUSH) {
		op[n++] = 0x35;
		op[n++] = 0x91;
	}
	return n;
}

/*
 * A timeout costs the request's timeout per try: 1 s instead of sd's 30
 * while armed (3 tries, lib/c/wb_backend.c).  The device's "timeout" takes
 * any whole number of seconds (scsi_sysfs.c:710-719, no lower bound) and
 * is the queue's rq_timeout, which sd's reads and writes take (sd.c sets
 * no rq->timeout for them; blk_add_timer() rounds each expiry up to a
 * whole second, so a try lasts 1-2 s).  The error handler's TEST UNIT
 * READY has its own eh_timeout (10 s, scsi_error.c:1444-1445).  The
 * (allowed + 1) * timeout budget of scsi_cmd_runtime_exceeced()
 * (scsi_lib.c:786-800, 6 s now) only fails a command the midlayer would
 * retry on completion (scsi_lib.c:943, 1561); a timed-out one is retried
 * by the abort and error handlers instead (scsi_error.c), and its final
 * DID_TIME_OUT without sense fails anyway (scsi_lib.c:940-941): the same
 * tries and outcome as with 2 s or 30.
 */
#define SD_TIMEOUT_S 1
#define SD_DEFAULT_TIMEOUT_S 30

static int sd_timeout(const char *disk, int secs)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/block/%s/device", strrchr(disk, '/') + 1);
	return put(path, "timeout", "%d", secs);
}

/* @count requests: as many commands as the driver tries for each */
static int sd_arm(struct backend *b, struct bk_armed *a, uint64_t count, char *msg, size_t len)
{
	uint64_t cmds = count * (uint64_t)a->n->attempts;
	char line[96];

	a->nopcodes = sd_opcodes(a->ops, a->opcodes);
	a->times = cmds ? -(long)cmds : -(long)WB_SD_UNLIMITED;
	if (!a->n->sd_type && sd_timeout(b->disk, SD_TIMEOUT_S)) {
		add_msg(msg, len, "cannot set %s's timeout: %s", b->disk, strerror(errno));
		return -EINVAL;
	}
	for (int i = 0; i < a->nopcodes; i++) {
		if (wb_native_sd_line(a->n, a->opcodes[i], cmds, line, sizeof(line)) < 0 ||
		    wb_write_file(b->ctl, line)) {
			add_msg(msg, len, "'%s' > %s: %s", line, b->ctl, strerror(errno));
			return -EINVAL;
		}
		add_msg(msg, len, "scsi_debug error: %s", line);
	}
	return 0;
}

/* the commands @a failed (its counts read back), and its lines removed */
static void sd_disarm(struct backend *b, const struct bk_armed *a)
{
	char *text = wb_read_file(b->ctl, NULL), *save = NULL, line[32];
	int type, cnt;
	unsigned int op;

	/* "Type\tCount\tCommand...", then one line per injection */
	for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save))
		if (sscanf(l, "%d\t%d\t0x%x", &type, &cnt, &op) == 3 && type == a->n->sd_type)
			for (int i = 0; i < a->nopcodes; i++)
				if (op == a->opcodes[i])
					b->fired += (uint64_t)(cnt - a->times);
	free(text);
	if (!a->n->sd_type)
		sd_timeout(b->disk, SD_DEFAULT_TIMEOUT_S);
	for (int i = 0; i < a->nopcodes; i++) {
		snprintf(line, sizeof(line), "- %d 0x%02x", a->n->sd_type, a->opcodes[i]);
		if (wb_write_file(b->ctl, line))
			fprintf(stderr, "wberr-run: '%s' > %s: %s\n", line, b->ctl, strerror(errno));
	}
}

/* ---- nvme -------------------------------------------------------------- */

static int nv_probe(struct backend *b, char *why, size_t len)
{
	const char *base;

	if (!b->nvme || !*b->nvme) {
		snprintf(why, len, "no NVMe disk in this guest (run-guest --nvme SIZE, $WBERR_NVME)");
		return 0;
	}
	base = strrchr(b->nvme, '/') ? strrchr(b->nvme, '/') + 1 : b->nvme;
	snprintf(b->ctl, sizeof(b->ctl), "/sys/kernel/debug/%s/fault_inject", base);
	if (access(b->ctl, F_OK)) {
		snprintf(why, len, "no NVMe fault injection: CONFIG_FAULT_INJECTION_DEBUG_FS is not set "
			 "(%s: %s)", b->ctl, strerror(errno));
		return 0;
	}
	return 1;
}

static int nv_arm(struct backend *b, struct bk_armed *a, const struct wb_rule *r, char *msg, size_t len)
{
	uint64_t skip = r->skip;

	/* @r->count requests: as many commands as the driver tries for each */
	a->times = r->count ? (long)r->count * a->n->attempts : NV_UNLIMITED;
	/* should_fail() skips while space > 1 (lib/fault-inject.c:139-142):
	 * space k+1 lets k commands by */
	if (put(b->ctl, "verbose", "0") || put(b->ctl, "task-filter", "N") ||
	    put(b->ctl, "status", "0x%x", a->n->nvme_sc) || put(b->ctl, "dont_retry", "%d", a->n->nvme_dnr) ||
	    put(b->ctl, "probability", "%" PRIu64, r->prob / 10000) ||
	    put(b->ctl, "interval", "%" PRIu64, r->every) ||
	    put(b->ctl, "space", "%" PRIu64, skip ? skip + 1 : 0) || put(b->ctl, "times", "%ld", a->times)) {
		add_msg(msg, len, "%s: %s", b->ctl, strerror(errno));
		return -EINVAL;
	}
	add_msg(msg, len, "nvme fault_inject: status=0x%03x dont_retry=%d probability=%" PRIu64 " interval=%" PRIu64
		" space=%" PRIu64 " times=%ld", a->n->nvme_sc, a->n->nvme_dnr, r->prob / 10000, r->every,
		skip ? skip + 1 : 0, a->times);
	return 0;
}

static void nv_disarm(struct backend *b, const struct bk_armed *a)
{
	b->fired += (uint64_t)(a->times - get_long(b->ctl, "times"));
	if (put(b->ctl, "times", "0") || put(b->ctl, "probability", "0"))
		fprintf(stderr, "wberr-run: cannot disarm %s: %s\n", b->ctl, strerror(errno));
}

/* ---- thin -------------------------------------------------------------- */

static int th_probe(char *why, size_t len)
{
	char out[2048];

	if (!run_cmd(out, sizeof(out), "dmsetup targets") && strstr(out, "thin-pool"))
		return 1;
	load_module("dm-thin-pool", "", out, sizeof(out));
	if (!run_cmd(out, sizeof(out), "dmsetup targets") && strstr(out, "thin-pool"))
		return 1;
	snprintf(why, len, "no dm-thin target (CONFIG_DM_THIN_PROVISIONING): dmsetup targets lists no thin-pool");
	return 0;
}

static int th_create(const char *name, const char *table, char *why, size_t len)
{
	if (!wb_dm_create(name, table))
		return 0;
	snprintf(why, len, "dmsetup create %s '%s': %s", name, table, wb_dm_error());
	return -1;
}

static int th_setup(struct backend *b, unsigned size_mb, unsigned pool_mb, char *why, size_t len)
{
	char t[512], out[256];
	static const char zero[4096];
	int fd;

	snprintf(t, sizeof(t), "0 %u linear %s 0", TH_META_SECTORS, b->scratch);
	if (th_create(TH_META, t, why, len))
		return -1;
	/* a zeroed superblock: the pool formats new metadata */
	fd = open("/dev/mapper/" TH_META, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || pwrite(fd, zero, sizeof(zero), 0) != (ssize_t)sizeof(zero) || fsync(fd)) {
		snprintf(why, len, "zeroing the pool's metadata: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	snprintf(t, sizeof(t), "0 %u linear %s %u", pool_mb * 2048, b->scratch, TH_META_SECTORS);
	if (th_create(TH_DATA, t, why, len))
		return -1;
	snprintf(t, sizeof(t), "0 %u thin-pool /dev/mapper/%s /dev/mapper/%s %u 0 1 error_if_no_space",
		 pool_mb * 2048, TH_META, TH_DATA, TH_BLOCK_SECTORS);
	if (th_create(TH_POOL, t, why, len))
		return -1;
	if (wb_dm_message(TH_POOL, "create_thin 0", out, sizeof(out))) {
		snprintf(why, len, "create_thin 0: %s", wb_dm_error());
		return -1;
	}
	snprintf(t, sizeof(t), "0 %u thin /dev/mapper/%s 0", size_mb * 2048, TH_POOL);
	if (th_create(TH_THIN, t, why, len))
		return -1;
	snprintf(b->disk, sizeof(b->disk), "/dev/mapper/%s", TH_THIN);
	snprintf(b->traced, sizeof(b->traced), "%s", b->disk);
	return 0;
}

static void th_teardown(void)
{
	wb_dm_remove(TH_THIN, 1);
	wb_dm_remove(TH_POOL, 1);
	wb_dm_remove(TH_DATA, 1);
	wb_dm_remove(TH_META, 1);
}

int backend_thin_extend(struct backend *b, unsigned mb, char *why, size_t len)
{
	char out[2048];

	if (b->kind != WB_BK_THIN || !b->up) {
		snprintf(why, len, "thin_extend needs backend thin");
		return -1;
	}
	/*
	 * The thin volume first: while the pool is suspended its thin
	 * devices are in requeue mode (pool_presuspend()), and a bio mapped
	 * then ends with BLK_STS_DM_REQUEUE (dm-thin.c:2733-2737), which dm
	 * core turns into BLK_STS_IOERR outside a noflush suspend of the
	 * thin device itself (dm.c:905-942): a read in that window fails
	 * with EIO.  So a noflush suspend, which keeps such a bio for the
	 * resume (dm.c:930-935) and does not freeze the file system (noflush
	 * takes precedence over lockfs, dm.c:2966-2973; --nolockfs says so
	 * again): a freeze writes its dirty metadata to the full pool, and
	 * ext4's then failed the suspend with EIO (seen once on Debian's
	 * 6.1, `dmsetup suspend` of the volume).  Then the data slice grown, the
	 * pool's table reloaded to its size (maybe_resize_data_dev(),
	 * dm-thin.c:3455-3500).
	 */
	if (run_cmd(out, sizeof(out),
		    "dmsetup suspend --noflush --nolockfs %s && dmsetup suspend %s && dmsetup reload %s --table '0 %u linear %s %u' && "
		    "dmsetup resume %s && dmsetup suspend %s && dmsetup reload %s --table '0 %u thin-pool "
		    "/dev/mapper/%s /dev/mapper/%s %u 0 1 error_if_no_space' && dmsetup resume %s && dmsetup resume %s",
		    TH_THIN, TH_DATA, TH_DATA, mb * 2048, b->scratch, TH_META_SECTORS, TH_DATA, TH_POOL, TH_POOL,
		    mb * 2048, TH_META, TH_DATA, TH_BLOCK_SECTORS, TH_POOL, TH_THIN)) {
		snprintf(why, len, "extending the pool to %u MiB: %.800s", mb, out);
		return -1;
	}
	return 0;
}

/* ---- the backend's life ------------------------------------------------ */

int backend_probe(struct backend *b, unsigned size_mb, char *why, size_t len)
{
	switch (b->kind) {
	case WB_BK_SCSI_DEBUG:
		return !sd_load(size_mb, why, len);
	case WB_BK_NVME:
		return nv_probe(b, why, len);
	case WB_BK_THIN:
		return th_probe(why, len);
	default:
		return 1;
	}
}

/* nvme: a dm-linear window of @size_mb at sector 0 of the namespace */
static int nv_setup(struct backend *b, unsigned size_mb, char *why, size_t len)
{
	char t[256], *text, path[128];
	unsigned long long sectors;
	const char *base = strrchr(b->nvme, '/') ? strrchr(b->nvme, '/') + 1 : b->nvme;

	snprintf(path, sizeof(path), "/sys/block/%s/size", base);
	text = wb_read_file(path, NULL);
	sectors = text ? strtoull(text, NULL, 10) : 0;
	free(text);
	if (sectors < (unsigned long long)size_mb * 2048) {
		snprintf(why, len, "%s has %llu MiB, the scenario wants %u", b->nvme, sectors / 2048, size_mb);
		return -1;
	}
	snprintf(t, sizeof(t), "0 %u linear %s 0", size_mb * 2048, b->nvme);
	if (th_create(NV_LINEAR, t, why, len))
		return -1;
	snprintf(b->disk, sizeof(b->disk), "/dev/mapper/%s", NV_LINEAR);
	snprintf(b->traced, sizeof(b->traced), "%s", b->nvme);
	if (put(b->ctl, "times", "0") || put(b->ctl, "verbose", "0")) {
		snprintf(why, len, "%s: %s", b->ctl, strerror(errno));
		return -1;
	}
	return 0;
}

int backend_setup(struct backend *b, unsigned size_mb, unsigned pool_mb, char *why, size_t len)
{
	int rc = -1;

	b->narmed = 0;
	b->fired = 0;
	b->next_seq = 0;
	switch (b->kind) {
	case WB_BK_SCSI_DEBUG:
		rc = sd_load(size_mb, why, len);
		snprintf(b->disk, sizeof(b->disk), "%s", sd.disk);
		snprintf(b->traced, sizeof(b->traced), "%s", sd.disk);
		snprintf(b->ctl, sizeof(b->ctl), "%s/%s/error", SD_DEBUGFS, sd.hctl);
		break;
	case WB_BK_NVME:
		rc = nv_probe(b, why, len) ? nv_setup(b, size_mb, why, len) : -1;
		break;
	case WB_BK_THIN:
		rc = th_setup(b, size_mb, pool_mb, why, len);
		break;
	}
	b->up = !rc;
	if (!rc && dev_number(b->traced, &b->major, &b->minor)) {
		snprintf(why, len, "%s: no block device", b->traced);
		rc = -1;
	}
	return rc;
}

/* a scsi_debug disk that error handling took offline (sd_eh_action(),
 * sd.c:2222-2230) stays so: the next instance gets a new one */
static void sd_check_state(void)
{
	char path[128], *state;

	if (!sd.size_mb)
		return;
	snprintf(path, sizeof(path), "/sys/block/%s/device/state", sd.disk + 5);
	state = wb_read_file(path, NULL);
	if (!state || strncmp(state, "running", 7))
		sd_unload();
	free(state);
}

void backend_teardown(struct backend *b)
{
	backend_clear(b);
	if (b->kind == WB_BK_SCSI_DEBUG)
		sd_check_state();
	if (b->kind == WB_BK_NVME)
		wb_dm_remove(NV_LINEAR, 1);
	if (b->kind == WB_BK_THIN)
		th_teardown();
	b->up = 0;
}

void backend_shutdown(void)
{
	sd_unload();
}

/* ---- faults ------------------------------------------------------------ */

int backend_armed(const struct backend *b)
{
	return b->narmed > 0;
}

/* the row fault @f becomes: a status of the backend's own, or the one a
 * dm-wberr status name stands for */
static const struct wb_native *native_of(const struct backend *b, const struct fault_spec *f, const char *matrix)
{
	const char *name = strcmp(f->rule.status, "$status") ? f->rule.status : matrix;
	const struct wb_native *n = name ? wb_native_by_name(b->kind, name) : NULL;

	return n ? n : name ? wb_native_for_status(b->kind, name) : NULL;
}

int backend_program(struct backend *b, const struct fault_spec *f, const char *matrix_status,
		    char *msg, size_t len)
{
	struct bk_armed *a;
	char why[512];
	int rc;

	if (wb_backend_check_rule(b->kind, &f->rule, f->file[0] != 0, why, sizeof(why))) {
		add_msg(msg, len, "%s", why);
		return -EINVAL;
	}
	if (b->narmed == BK_MAX_ARMED || (b->kind == WB_BK_NVME && b->narmed)) {
		add_msg(msg, len, "%s: %s", wb_backends[b->kind].name,
			b->narmed ? "one fault at a time (one fault_inject per namespace)" : "too many faults");
		return -EBUSY;
	}
	a = &b->armed[b->narmed];
	memset(a, 0, sizeof(*a));
	snprintf(a->id, sizeof(a->id), "%s", f->id);
	a->n = native_of(b, f, matrix_status);
	a->ops = f->rule.ops;
	if (!a->n) {
		add_msg(msg, len, "%s has no status \"%s\"", wb_backends[b->kind].name, f->rule.status);
		return -EINVAL;
	}
	add_msg(msg, len, "%s: %s", a->n->name, a->n->what);
	rc = b->kind == WB_BK_SCSI_DEBUG ? sd_arm(b, a, f->rule.count, msg, len) : nv_arm(b, a, &f->rule, msg, len);
	if (!rc) {
		b->narmed++;
		b->armed_since = 1;
	}
	return rc;
}

static void disarm(struct backend *b, int i)
{
	if (b->kind == WB_BK_SCSI_DEBUG)
		sd_disarm(b, &b->armed[i]);
	else if (b->kind == WB_BK_NVME)
		nv_disarm(b, &b->armed[i]);
	b->armed[i] = b->armed[--b->narmed];
}

int backend_remove(struct backend *b, const char *id, char *msg, size_t len)
{
	for (int i = 0; i < b->narmed; i++)
		if (!strcmp(b->armed[i].id, id)) {
			disarm(b, i);
			return 0;
		}
	add_msg(msg, len, "no fault with id '%s'", id);
	return -ENOENT;
}

int backend_clear(struct backend *b)
{
	while (b->narmed)
		disarm(b, b->narmed - 1);
	return 0;
}

/* one failed completion against what is armed: 1 when it has no fault behind it */
static int unexplained(const struct backend *b, const struct wb_fault *f, int armed, char *msg, size_t len)
{
	unsigned int ops = 0, bit = 0;
	char named[64];

	if (b->kind == WB_BK_THIN)
		return 0;	/* the full pool is the cause: no injector to arm */
	if (!armed) {
		add_msg(msg, len, "CROSS-CHECK: %s failed a %s (sector %" PRIu64 "+%" PRIu64 ", %s) with no fault armed",
			b->traced, f->opclass, f->sector, f->nr, f->status);
		return 1;
	}
	for (int i = 0; i < b->narmed; i++)
		ops |= b->armed[i].ops;
	for (size_t k = 0; k < wb_nr_ops; k++)
		if (!strcmp(wb_op_names[k].name, f->opclass))
			bit = (unsigned int)wb_op_names[k].val;
	if (!ops || (ops & bit))
		return 0;
	wb_op_format(ops, named, sizeof(named));
	add_msg(msg, len, "CROSS-CHECK: the injector failed a %s (sector %" PRIu64 "+%" PRIu64 ", %s), the step named %s: "
		"%s cannot tell them apart (docs/real-drivers.md)", f->opclass, f->sector, f->nr, f->status, named,
		wb_backends[b->kind].name);
	return 1;
}

int backend_faults(struct backend *b, const struct wb_trace *t,
		   int (*add)(void *arg, const struct wb_fault *f), void *arg, char *msg, size_t len)
{
	int bad = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct wb_ev *e = &t->v[i];
		struct wb_fault f;

		if (e->kind != WB_EV_BLK || !e->blk.err || e->blk.major != b->major || e->blk.minor != b->minor ||
		    e->blk.bio != (b->kind == WB_BK_THIN))
			continue;
		if (wb_fault_from_blk(&e->blk, b->next_seq, e->us * 1000, &f)) {
			add_msg(msg, len, "%s: a completion with %s, which no status maps to", b->traced,
				wb_errno_name(e->blk.err));
			bad++;
			continue;
		}
		b->next_seq++;
		bad += unexplained(b, &f, b->narmed || b->armed_since, msg, len);
		if (add(arg, &f))
			return -1;
	}
	b->armed_since = b->narmed > 0;
	return bad;
}
