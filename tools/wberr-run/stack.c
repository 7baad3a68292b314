// SPDX-License-Identifier: GPL-2.0
/* The device stack of one instance; see stack.h. */
#include "stack.h"
#include "wb_dm.h"
#include "dm.h"
#include "sys.h"
#include "wb_fiemap.h"
#include "wb_sys.h"
#include "fstemplate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <linux/fiemap.h>

static void mount_opts(const struct stack *s, char *buf, size_t len)
{
	const struct scenario *sc = s->sc;
	const char *mo = sc->has_mount_opts_fs ? sc->mount_opts_fs[s->fs] : sc->mount_opts;

	buf[0] = 0;
	if (wb_fs[s->fs].data_modes && s->data_mode != DM_DEFAULT)
		snprintf(buf, len, "data=%s%s%.400s", data_mode_names[s->data_mode],
			 mo[0] ? "," : "", mo);
	else if (sc->dax)	/* ext4 refuses a device without DAX, xfs would fall back */
		snprintf(buf, len, "%s%s%.400s", wb_fs[s->fs].mount_dax, mo[0] ? "," : "", mo);
	else
		snprintf(buf, len, "%.500s", mo);
}

int stack_mount(struct stack *s)
{
	char opts[TEXT_LEN + 32];

	mount_opts(s, opts, sizeof(opts));
	if (mount(s->dev, s->mnt, wb_fs[s->fs].name, 0, opts[0] ? opts : NULL))
		return -errno;
	s->mounted = 1;
	return 0;
}

int stack_umount(struct stack *s)
{
	if (umount(s->mnt))
		return -errno;
	s->mounted = 0;
	return 0;
}

int stack_read_statuses(const char *dmname, const char *disk, struct wb_kernel *k,
			char *err, size_t errlen)
{
	char out[1024];
	int rc;

	if (dm_create(dmname, disk, 8, 0, out, sizeof(out))) {
		snprintf(err, errlen, "cannot create the dm-wberr device: %.900s", out);
		return -1;
	}
	rc = wb_kernel_read_statuses(k, dmname, err, errlen);
	dm_remove(dmname);
	return rc;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The file systems made so far in this run, one per kind (the mkfs command
 * with the scenario's options, the disk, the size): a later instance of a
 * kind gets the captured image back instead of a new mkfs.  The size caps
 * keep it in memory (ext4 on 320 MiB keeps about 1 MiB).
 */
#define TEMPLATES_MAX 32
#define TEMPLATE_MAX_DATA (32u << 20)
#define TEMPLATE_KEY_LEN (TEXT_LEN + 1024)
static struct {
	char key[TEMPLATE_KEY_LEN];
	struct fst fst;
} templates[TEMPLATES_MAX];
static int ntemplates;

/* the programs mkfs_binary() hashed in this run (a run has a few) */
static struct {
	char prog[64];
	char id[600];
} binaries[8];
static int nbinaries;

void stack_templates_reset(void)
{
	for (int i = 0; i < ntemplates; i++)
		fst_free(&templates[i].fst);
	ntemplates = 0;
	nbinaries = 0;
}

int stack_kind_cmp(const struct instance *a, const struct instance *b)
{
	int c;

	if (a->backend != b->backend)
		return a->backend < b->backend ? -1 : 1;
	if (a->fs != b->fs)
		return a->fs < b->fs ? -1 : 1;
	if (a->sc->dax != b->sc->dax)
		return a->sc->dax < b->sc->dax ? -1 : 1;
	if (a->sc->size_mb != b->sc->size_mb)
		return a->sc->size_mb < b->sc->size_mb ? -1 : 1;
	c = strcmp(a->sc->mkfs_opts, b->sc->mkfs_opts);
	if (c)
		return c;
	if (a->sc->lvm != b->sc->lvm)
		return a->sc->lvm < b->sc->lvm ? -1 : 1;
	return 0;
}

static int templates_wanted(void)
{
	const char *e = getenv("WBERR_NO_TEMPLATE");

	return !(e && *e && strcmp(e, "0"));
}

static const char *disk_name(const char *dev)
{
	const char *b = strrchr(dev, '/');

	return b ? b + 1 : dev;
}

/* the pmem's badblocks list is empty: 1, else 0 with what it holds */
static int pmem_clean(const char *disk, char *reason, size_t rlen)
{
	char path[300], buf[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/block/%s/badblocks", disk_name(disk));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(reason, rlen, "%s: %s (is %s a pmem?)", path, strerror(errno), disk);
		return 0;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n == 0)
		return 1;
	buf[n > 0 ? n : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	snprintf(reason, rlen, "%s still lists bad sectors (%s...): the last instance's were not dropped",
		 path, buf);
	return 0;
}

/*
 * Drop the badblocks an instance set.  Nothing in sysfs removes one
 * (badblocks_store() only sets), and clearing through the platform needs
 * the NFIT's Clear Uncorrectable Error, which QEMU's nvdimm bus does not
 * offer (ndbus0/nfit/dsm_mask is 0x0).  But the list belongs to the driver's
 * instance: pmem_attach_disk() makes a new one and fills it from the
 * region's ARS results (none here), so unbinding and binding the fsdax
 * device (the disk's parent, e.g. pfn0.0) empties it; the data stay.
 */
static int pmem_rebind(const char *disk, char *reason, size_t rlen)
{
	char link[300], target[300], dev[64];
	const char *base;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/block/%s/device", disk_name(disk));
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0) {
		snprintf(reason, rlen, "%s: %s", link, n < 0 ? strerror(errno) : "empty");
		return -1;
	}
	target[n] = 0;
	base = strrchr(target, '/');
	snprintf(dev, sizeof(dev), "%.63s", base ? base + 1 : target);
	if (wb_write_file("/sys/bus/nd/drivers/nd_pmem/unbind", dev) ||
	    wb_write_file("/sys/bus/nd/drivers/nd_pmem/bind", dev)) {
		snprintf(reason, rlen, "rebinding %s to nd_pmem: %s", dev, strerror(errno));
		return -1;
	}
	for (int i = 0; i < 100 && access(disk, F_OK); i++)
		usleep(10000);
	return pmem_clean(disk, reason, rlen) ? 0 : -1;
}

/* lib/c's file-system table: NULL for raw */
static const char *mkfs_command(const struct stack *s)
{
	return s->sc->dax ? wb_fs[s->fs].mkfs_dax : wb_fs[s->fs].mkfs;
}

/* FNV-1a: names a template's file, and identifies a mkfs program */
static uint64_t fnv1a(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

/* the block device's queue limits that mkfs reads (its topology) */
static void disk_geometry(const char *disk, char *buf, size_t len)
{
	static const char *const lim[] = { "logical_block_size", "physical_block_size", "minimum_io_size",
					   "optimal_io_size", "discard_granularity", "discard_max_bytes",
					   "write_zeroes_max_bytes", "rotational", "dax" };
	char path[128], *v;
	struct stat st;
	size_t n = 0;

	buf[0] = 0;
	if (stat(disk, &st) || !S_ISBLK(st.st_mode))
		return;
	for (size_t i = 0; i < sizeof(lim) / sizeof(lim[0]) && n < len; i++) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/%s", major(st.st_rdev),
			 minor(st.st_rdev), lim[i]);
		v = wb_read_file(path, NULL);
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%.*s", i ? "," : "", lim[i],
				      v ? (int)strcspn(v, "\n") : 1, v ? v : "?");
		free(v);
	}
}

/* @prog on PATH: "<path> <hash of its bytes>" into @buf, else "?" */
static void mkfs_binary_find(const char *prog, char *buf, size_t len)
{
	const char *p = getenv("PATH");
	char path[512], *bytes;
	size_t n;

	snprintf(buf, len, "?");
	for (const char *d = p ? p : "/usr/sbin:/usr/bin:/sbin:/bin"; *d;) {
		size_t dl = strcspn(d, ":");

		snprintf(path, sizeof(path), "%.*s/%s", (int)dl, d, prog);
		bytes = wb_read_file(path, &n);
		if (bytes) {
			snprintf(buf, len, "%s %016llx", path, (unsigned long long)fnv1a(bytes, n));
			free(bytes);
			return;
		}
		d += dl + (d[dl] == ':');
	}
}

/* the mkfs program (the command's first word, on PATH): its path and a
 * hash of its bytes (not its mtime: every image gets new mtimes) */
static void mkfs_binary(const char *mkfs, char *buf, size_t len)
{
	char prog[64];

	snprintf(buf, len, "?");
	if (sscanf(mkfs, "%63s", prog) != 1)
		return;
	for (int i = 0; i < nbinaries; i++)
		if (!strcmp(binaries[i].prog, prog)) {
			snprintf(buf, len, "%s", binaries[i].id);
			return;
		}
	mkfs_binary_find(prog, buf, len);
	if (nbinaries < (int)(sizeof(binaries) / sizeof(binaries[0]))) {
		snprintf(binaries[nbinaries].prog, sizeof(binaries[0].prog), "%s", prog);
		snprintf(binaries[nbinaries++].id, sizeof(binaries[0].id), "%s", buf);
	}
}

/*
 * What a kind's mkfs output depends on: the command and options, the disk
 * and size (the template is restored straight on the disk), the disk's
 * topology, the kernel (mkfs.btrfs picks its defaults by it) and the mkfs
 * program.  Within a run only the first three change; kept across runs
 * (WBERR_TEMPLATES) a template must not outlive any of them.
 */
static void template_key(const struct stack *s, const char *mkfs, uint64_t sectors, char *key, size_t klen)
{
	char geo[512], bin[600];
	struct utsname u;

	disk_geometry(s->disk, geo, sizeof(geo));
	mkfs_binary(mkfs, bin, sizeof(bin));
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	snprintf(key, klen, "%s %s|%s|%llu|%s|%s %s|%s", mkfs, s->sc->mkfs_opts, s->disk,
		 (unsigned long long)sectors, geo, u.release, u.version, bin);
}

/* WBERR_TEMPLATES's file for @key (FNV-1a of the key); 0 when none is set */
static int template_path(const char *key, char *path, size_t len)
{
	const char *dir = getenv("WBERR_TEMPLATES");

	if (!dir || !*dir)
		return 0;
	return (size_t)snprintf(path, len, "%s/%016llx.fst", dir,
				(unsigned long long)fnv1a(key, strlen(key))) < len;
}

/* this run's template of @key, else one an earlier run kept; NULL when none */
static const struct fst *template_find(const char *key)
{
	char path[1024];

	for (int i = 0; i < ntemplates; i++)
		if (!strcmp(templates[i].key, key))
			return &templates[i].fst;
	if (ntemplates == TEMPLATES_MAX || !template_path(key, path, sizeof(path)) ||
	    fst_load(path, key, TEMPLATE_MAX_DATA, &templates[ntemplates].fst))
		return NULL;
	snprintf(templates[ntemplates].key, sizeof(templates[0].key), "%s", key);
	return &templates[ntemplates++].fst;
}

/*
 * The template of this instance's kind into @key and, when one was made
 * already, restored on the disk (s->from_template).  A template lives on
 * the disk itself, straight under the wberr table (not under LVM's
 * metadata); on a pmem, which has no write-zeroes, BLKZEROOUT writes zero
 * pages, still well under mkfs's time.
 */
static int template_restore(struct stack *s, const char *mkfs, uint64_t sectors, char *key, size_t klen,
			    char *reason, size_t rlen)
{
	const struct fst *tpl = NULL;
	double t0 = mono_s();
	int fd, rc;

	key[0] = 0;
	/* a thin volume would be provisioned whole by the zeroing */
	if (!mkfs || s->sc->lvm || (s->bk && s->bk->kind == WB_BK_THIN) || !templates_wanted())
		return 0;
	template_key(s, mkfs, sectors, key, klen);
	tpl = template_find(key);
	if (!tpl)
		return 0;
	fd = open(s->disk, O_RDWR | O_DIRECT | O_CLOEXEC);
	rc = fd < 0 ? -errno : fst_restore(fd, tpl);
	if (fd >= 0)
		close(fd);
	s->secs_mkfs = mono_s() - t0;
	if (rc) {
		snprintf(reason, rlen, "restoring the %s template on %s: %s", wb_fs[s->fs].name, s->disk,
			 strerror(-rc));
		return -1;
	}
	s->from_template = 1;
	return 0;
}

/*
 * LVM for an instance: an LV over the whole wberr device, made by lvm2
 * without udev or lvm's daemons (none run in the guest: lvm makes its
 * /dev nodes itself) and with only the wberr device in view (the disk
 * below carries the same PV label).
 *
 * An lvm process costs 0.25-0.35 s of start-up under TCG, so the set-up
 * is one lvm script (`lvm FILE`, FILE starting with "#!"): its commands
 * in one process, stopping at the first that fails, with that command's
 * status as the exit status (lvm2 2.03.16 tools/lvmcmdline.c
 * _run_script(); lvm's shell, reading commands on stdin, exits 0 whatever
 * failed).  The teardown is one vgremove -ff, which deactivates the LV
 * itself.  The settings are an lvm.conf of wberr-run's own, found through
 * LVM_SYSTEM_DIR instead of /etc/lvm: a script line is read into 256
 * bytes (CMD_LEN), too few for a --config on every line.  lvm.conf and
 * the script live in a directory of their own under /run (a tmpfs in
 * the guest, harness/guest/init), named for the wberr device and written
 * at each set-up; lvm keeps nothing else there (no metadata backups or
 * archives: the VG lives for one instance, as with the image's
 * /etc/lvm/lvm.conf).
 */
#define LVM_VG "wberrvg"
#define LVM_LV_DM LVM_VG "-lv"	/* the LV's dm device */
#define LVM_ENV "LVM_SYSTEM_DIR=%s LVM_SUPPRESS_FD_WARNINGS=1"

static void lvm_dir(const struct stack *s, char *dir, size_t len)
{
	snprintf(dir, len, "/run/wberr-run-lvm.%s", s->dmname);
}

static int lvm_write(const char *dir, const char *name, const char *text)
{
	FILE *f = wb_fopen_in(dir, name, "w");
	int bad;

	if (!f)
		return -1;
	bad = fputs(text, f) == EOF;
	return fclose(f) || bad ? -1 : 0;
}

/* @dir with the lvm.conf and the set-up script for @s */
static int lvm_files(const struct stack *s, const char *dir, char *reason, size_t rlen)
{
	char conf[1024], script[1024];

	snprintf(conf, sizeof(conf),
		 "# wberr-run's (tools/wberr-run/stack.c): an LV over %s\n"
		 "activation { udev_sync = 0 udev_rules = 0 }\n"
		 "devices { obtain_device_list_from_udev = 0 global_filter = [ \"a|^%s$|\", \"r|.*|\" ] }\n"
		 "backup { backup = 0 archive = 0 }\n", s->wdev, s->wdev);
	snprintf(script, sizeof(script), "#!lvm\npvcreate -ff -y %s\nvgcreate " LVM_VG " %s\n"
		 "lvcreate -y -Zn -n lv -l 100%%FREE " LVM_VG "\n", s->wdev, s->wdev);
	if ((mkdir(dir, 0755) && errno != EEXIST) || lvm_write(dir, "lvm.conf", conf) ||
	    lvm_write(dir, "setup", script)) {
		snprintf(reason, rlen, "cannot write lvm's files in %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* the LV over the whole wberr device: s->dev is it, s->dev_offset where it starts */
static int stack_lvm(struct stack *s, char *reason, size_t rlen)
{
	char out[4096], dir[512], table[512], tgt[32];
	uint64_t st, l;
	unsigned long long off;
	const char *params;
	size_t plen;
	int rc;

	lvm_dir(s, dir, sizeof(dir));
	if (lvm_files(s, dir, reason, rlen))
		return -1;
	rc = run_cmd(out, sizeof(out), LVM_ENV " lvm %s/setup", dir, dir);
	if (rc) {
		snprintf(reason, rlen, "lvm set-up (%s/setup) failed (exit %d): %.900s", dir, rc, out);
		return -1;
	}
	snprintf(s->dev, sizeof(s->dev), "/dev/mapper/" LVM_LV_DM);
	/* "0 <len> linear 253:0 <offset>" */
	rc = wb_dm_table(LVM_LV_DM, table, sizeof(table));
	if (rc || wb_dm_table_split(table, &st, &l, tgt, sizeof(tgt), &params, &plen) ||
	    strcmp(tgt, "linear") || sscanf(params, "%*s %llu", &off) != 1) {
		snprintf(reason, rlen, "no linear LV after lvm's set-up: %.400s; lvm said: %.500s",
			 rc ? wb_dm_error() : table, out);
		return -1;
	}
	s->dev_offset = off;
	return 0;
}

/* the VG gone, and with it the LV; whatever lvm left must not hold the device */
static void lvm_teardown(const struct stack *s)
{
	char out[4096], dir[512];

	lvm_dir(s, dir, sizeof(dir));
	run_cmd(out, sizeof(out), LVM_ENV " lvm vgremove -ff -y " LVM_VG, dir);
	wb_dm_remove(LVM_LV_DM, 1);
}

/* mkfs, and what it wrote kept as the template of @key (before mount changes it) */
static int make_fs(struct stack *s, const char *mkfs, uint64_t sectors, const char *key,
		   char *reason, size_t rlen)
{
	char out[4096], path[1024];
	double t = mono_s();
	int rc = run_cmd(out, sizeof(out), "%s %s %s", mkfs, s->sc->mkfs_opts, s->dev), fd;

	if (rc) {
		snprintf(reason, rlen, "mkfs failed (%d): %.900s", rc, out);
		return -1;
	}
	if (key[0] && ntemplates < TEMPLATES_MAX) {
		fd = open(s->disk, O_RDONLY | O_DIRECT | O_CLOEXEC);
		if (fd >= 0 && !fst_capture(fd, sectors * 512, TEMPLATE_MAX_DATA, &templates[ntemplates].fst)) {
			snprintf(templates[ntemplates].key, sizeof(templates[0].key), "%s", key);
			/* kept for later runs; a run without it only pays mkfs again */
			if (template_path(key, path, sizeof(path)))
				fst_save(path, key, &templates[ntemplates].fst);
			ntemplates++;
		}
		if (fd >= 0)
			close(fd);
	}
	s->secs_mkfs = mono_s() - t;
	return 0;
}

/* a real driver's device (backend.h) as the disk and the device */
static int stack_backend(struct stack *s, char *reason, size_t rlen)
{
	double t = mono_s();

	if (backend_setup(s->bk, s->sc->size_mb, s->sc->pool_mb, reason, rlen))
		return -1;
	s->disk = s->bk->disk;
	snprintf(s->wdev, sizeof(s->wdev), "%s", s->bk->disk);
	s->secs_device = mono_s() - t;
	return 0;
}

int stack_setup(struct stack *s, char *reason, size_t rlen)
{
	char out[4096], key[TEMPLATE_KEY_LEN];
	uint64_t sectors = (uint64_t)s->sc->size_mb * 2048;
	const char *mkfs = mkfs_command(s);
	double t;
	int rc;

	snprintf(s->wdev, sizeof(s->wdev), "/dev/mapper/%s", s->dmname);
	if (s->bk && stack_backend(s, reason, rlen))
		return -1;
	/* an earlier instance's bad sectors would fail this one's mkfs */
	if (s->sc->dax && !pmem_clean(s->disk, reason, rlen))
		return -1;
	if (template_restore(s, mkfs, sectors, key, sizeof(key), reason, rlen))
		return -1;
	t = mono_s();
	if (!s->bk && dm_create(s->dmname, s->disk, sectors, s->seed, out, sizeof(out))) {
		snprintf(reason, rlen, "cannot create the dm-wberr device: %.900s", out);
		return -1;
	}
	s->created = !s->bk;
	snprintf(s->dev, sizeof(s->dev), "%s", s->wdev);
	if (s->sc->lvm && stack_lvm(s, reason, rlen))
		return -1;
	s->secs_device += mono_s() - t;
	if (mkfs) {
		if (!s->from_template && make_fs(s, mkfs, sectors, key, reason, rlen))
			return -1;
		mkdir(s->mnt, 0755);
		t = mono_s();
		rc = stack_mount(s);
		s->secs_mount = mono_s() - t;
		if (rc) {
			snprintf(reason, rlen, "mount %s on %s: %s", s->dev, s->mnt, strerror(-rc));
			return -1;
		}
	}
	/* only the scenario's own faults from here on */
	if (!s->bk) {
		dm_message(s->dmname, "clear", out, sizeof(out));
		dm_message(s->dmname, "log_clear", out, sizeof(out));
	}
	return 0;
}

int stack_cycle(struct stack *s, char *reason, size_t rlen)
{
	char out[4096];
	int rc;

	if (s->sc->lvm || s->bk) {
		snprintf(reason, rlen, "device_cycle is supported on dm-wberr without LVM only");
		return -1;
	}
	if (s->mounted && (rc = stack_umount(s))) {
		snprintf(reason, rlen, "umount %s: %s", s->mnt, strerror(-rc));
		return -1;
	}
	if (dm_remove(s->dmname)) {
		snprintf(reason, rlen, "cannot remove %s", s->dmname);
		return -1;
	}
	s->created = 0;
	if (dm_create(s->dmname, s->disk, (uint64_t)s->sc->size_mb * 2048, s->seed, out, sizeof(out))) {
		snprintf(reason, rlen, "cannot create the dm-wberr device again: %.900s", out);
		return -1;
	}
	s->created = 1;
	if ((rc = stack_mount(s))) {
		snprintf(reason, rlen, "mount %s on %s: %s", s->dev, s->mnt, strerror(-rc));
		return -1;
	}
	return 0;
}

void stack_teardown(struct stack *s)
{
	char out[4096];

	if (s->created)
		dm_message(s->dmname, "clear", out, sizeof(out));
	if (s->mounted) {
		sync();
		if (umount(s->mnt))
			umount2(s->mnt, MNT_DETACH);
		s->mounted = 0;
	}
	if (s->sc->lvm && s->created)
		lvm_teardown(s);
	if (s->created)
		dm_remove(s->dmname);
	s->created = 0;
	if (s->bk && s->bk->up)
		backend_teardown(s->bk);
	if (s->poisoned) {
		char why[512];

		if (pmem_rebind(s->disk, why, sizeof(why)))
			fprintf(stderr, "wberr-run: cannot drop the bad sectors of %s: %s\n", s->disk, why);
		s->poisoned = 0;
	}
}

/* FIEMAP the file's allocated extents, in sectors of the wberr device */
int stack_fiemap(const struct stack *s, const char *rel, struct ext *out, int max)
{
	char path[PATH_LEN * 2];
	struct wb_extent fe[MAX_EXT];
	int fd, nfe, complete, n = 0;

	snprintf(path, sizeof(path), "%s/%s", s->mnt, rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	nfe = wb_fiemap(fd, 0, fe, MAX_EXT, &complete);
	close(fd);
	if (nfe < 0)
		return nfe;
	for (int i = 0; i < nfe && n < max; i++) {
		if (fe[i].flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC |
				   FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_NOT_ALIGNED))
			continue;
		out[n].first = fe[i].first + s->dev_offset;
		out[n].last = fe[i].last + s->dev_offset;
		n++;
	}
	return n;
}

int stack_free_space(const struct stack *s, struct ext *out, int max)
{
	struct wb_extent fe[MAX_EXT];
	int fd = open(s->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC), n;

	if (fd < 0)
		return -errno;
	n = wb_fsmap_free(fd, fe, max < MAX_EXT ? max : MAX_EXT);
	close(fd);
	for (int i = 0; i < n; i++) {
		out[i].first = fe[i].first + s->dev_offset;
		out[i].last = fe[i].last + s->dev_offset;
	}
	return n;
}

/*
 * Mark [@off, @off + @len) of @rel bad on the pmem under the wberr device:
 * its extents (FIEMAP) become "sector count" lines written to
 * /sys/block/<pmem>/badblocks (block/genhd.c disk_badblocks_store()), the
 * list pmem checks on every access: bio reads fail with BLK_STS_IOERR and
 * dax_direct_access() returns -EHWPOISON.  The wberr table maps sector s
 * to the pmem's sector s.  0 or -errno, what was marked in @msg.
 */
int stack_badblocks(struct stack *s, const char *rel, uint64_t off, uint64_t len,
		    char *msg, size_t mlen)
{
	char path[PATH_LEN * 2], sysfs[300], line[64];
	struct wb_extent fe[MAX_EXT];
	const char *name = strrchr(s->disk, '/');
	uint64_t lo = off / 512, hi = (off + len) / 512, marked = 0;	/* [lo, hi) file sectors */
	int fd, nfe, complete, rc = 0;
	size_t used = 0;

	snprintf(sysfs, sizeof(sysfs), "/sys/block/%s/badblocks", name ? name + 1 : s->disk);
	snprintf(path, sizeof(path), "%s/%s", s->mnt, rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	nfe = wb_fiemap(fd, 1, fe, MAX_EXT, &complete);
	close(fd);
	if (nfe < 0)
		return nfe;
	msg[0] = 0;
	for (int i = 0; i < nfe && !rc; i++) {
		uint64_t a = fe[i].logical, b = fe[i].logical + (fe[i].last - fe[i].first + 1);

		if (fe[i].flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_DATA_INLINE))
			continue;
		if (a < lo)
			a = lo;
		if (b > hi)
			b = hi;
		if (a >= b)
			continue;
		snprintf(line, sizeof(line), "%llu %llu",
			 (unsigned long long)(fe[i].first + (a - fe[i].logical) + s->dev_offset),
			 (unsigned long long)(b - a));
		if (wb_write_file(sysfs, line))
			rc = -errno;
		else
			marked += b - a;
		s->poisoned |= !rc;
		if (used < mlen)
			used += (size_t)snprintf(msg + used, mlen - used, "%s%s %s", used ? ", " : "",
						 sysfs + 11, line);
	}
	if (!rc && marked != hi - lo) {
		if (used < mlen)
			snprintf(msg + used, mlen - used, "%sonly %llu of %llu sectors are allocated",
				 used ? "; " : "", (unsigned long long)marked, (unsigned long long)(hi - lo));
		rc = -ENXIO;
	}
	return rc;
}
