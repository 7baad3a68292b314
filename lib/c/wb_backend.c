// SPDX-License-Identifier: GPL-2.0
/*
 * The backends and the statuses of the real drivers; see wb_backend.h.
 * Every mapping below was read in the 6.12.118 tree kernel/build.sh
 * extracts (line numbers of that tree); docs/real-drivers.md has the
 * same rows with what each measured.
 */
#include "wb_backend.h"
#include "wb_names.h"

#include <stdio.h>
#include <string.h>

#define K(k) (1u << WB_KEY_##k)

const struct wb_backend wb_backends[WB_BK__N] = {
	[WB_BK_DM_WBERR] = {
		.name = "dm-wberr",
		.device = "a dm-wberr table over the first scratch disk",
		.injector = "dm-wberr rules (the add and remove messages)",
		.fault_log = "dm-wberr's fault log (the log message)",
		.needs = "dm-wberr.ko",
		.ops = WB_OP_ALL,
		.ops_told = WB_OP_ALL,
		.keys = (1u << WB_KEY__N) - 1,
	},
	[WB_BK_SCSI_DEBUG] = {
		.name = "scsi_debug",
		.device = "a scsi_debug disk of size_mb (modprobe scsi_debug dev_size_mb=... delay=0)",
		.injector = "/sys/kernel/debug/scsi_debug/<h:c:t:l>/error: one line per SCSI opcode "
			    "(READ, WRITE, SYNCHRONIZE CACHE) with the count, status, host byte and sense",
		.fault_log = "the failed completions the block layer traces on the disk "
			     "(block:block_rq_complete with an error)",
		.needs = "CONFIG_SCSI_DEBUG with its per-device error file (Linux 6.7 and later)",
		.ops = WB_OP_READ | WB_OP_WRITE | WB_OP_FUA | WB_OP_FLUSH,
		/* a FUA write is a WRITE(10)/(16) with the FUA bit: the same opcode */
		.ops_told = WB_OP_READ | WB_OP_FLUSH,
		.keys = K(COUNT),
		.no_range = "scsi_debug fails commands by opcode, whatever their LBA (its medium-error "
			    "range applies to reads only: scsi_debug.c:3988-4001)",
		.natives = 1,
	},
	[WB_BK_NVME] = {
		.name = "nvme",
		.device = "the namespace of QEMU's NVMe controller (run-guest --nvme)",
		.injector = "/sys/kernel/debug/<disk>/fault_inject: status, dont_retry, times, space, "
			    "interval, probability",
		.fault_log = "the failed completions the block layer traces on the namespace "
			     "(block:block_rq_complete with an error)",
		.needs = "CONFIG_BLK_DEV_NVME and CONFIG_FAULT_INJECTION_DEBUG_FS",
		.ops = WB_OP_ALL,
		/* nvme_should_fail() takes the namespace's next command, any op */
		.ops_told = 0,
		/* action: fail or pass_then_fail, the same there (below) */
		.keys = K(COUNT) | K(SKIP) | K(EVERY) | K(PROB) | K(ACTION),
		.no_range = "the NVMe injector fails the namespace's next commands whatever their LBA "
			    "(drivers/nvme/host/fault_inject.c:57-82)",
		.natives = 1,
	},
	[WB_BK_THIN] = {
		.name = "thin",
		.device = "a thin volume of size_mb in a dm-thin pool of pool_mb over the first scratch "
			  "disk (error_if_no_space)",
		.injector = "none: the pool fails writes to unprovisioned blocks once it is full",
		.fault_log = "the failed bio completions the block layer traces on the thin volume "
			     "(block:block_bio_complete with an error)",
		.needs = "CONFIG_DM_THIN_PROVISIONING",
		.no_faults = "a thin pool fails writes only when it runs out of data space: write more "
			     "than pool_mb holds",
		.natives = 1,
		.needs_pool = 1,
	},
};

#undef K

#define CC 0x02		/* SAM_STAT_CHECK_CONDITION, include/scsi/scsi_proto.h:203 */
#define SD_FAIL 2	/* scsi_debug's ERR_FAIL_CMD, scsi_debug.c:308 */
#define SD_TMOUT 0	/* ERR_TMOUT_CMD, scsi_debug.c:305 */
#define SD_RETRIES "retried while ++retries <= allowed (scsi_error.c:2101-2113, 137-143; " \
		   "sd.c:1426 allowed = max_retries, SD_MAX_RETRIES 5, sd.h:27)"
#define NV_RETRIES "retried while retries < nvme_max_retries (core.c:392-414, 61: 5), " \
		   "at once without CRD (core.c:314-327)"

/* scsi_debug: the row's fields from sd_type on */
#define SCSI(n, w, type, host, st, key, asc, ascq, b, att, src, can) \
	{ WB_BK_SCSI_DEBUG, n, w, type, host, st, key, asc, ascq, 0, 0, b, att, src, can, NULL }
#define NVME(n, w, sc, dnr, b, att, src, can) \
	{ WB_BK_NVME, n, w, 0, 0, 0, 0, 0, 0, sc, dnr, b, att, src, can, NULL }

const struct wb_native wb_natives[] = {
	SCSI("medium-unrecovered", "CHECK CONDITION, MEDIUM ERROR, 0x11/0x00 UNRECOVERED READ ERROR",
	     SD_FAIL, 0, CC, 0x3, 0x11, 0x00, "medium", 1,
	     "scsi_error.c:715-720 (ASC 0x11: SCSIML_STAT_MED_ERROR, SUCCESS); scsi_lib.c:725-726", 1),
	SCSI("medium-write", "CHECK CONDITION, MEDIUM ERROR, 0x0c/0x00 WRITE ERROR",
	     SD_FAIL, 0, CC, 0x3, 0x0c, 0x00, "ioerr", 6,
	     "scsi_error.c:715-722 (another ASC: NEEDS_RETRY), " SD_RETRIES
	     "; scsi_lib.c:735-737 (DID_OK, CHECK CONDITION: BLK_STS_IOERR)", 0),
	SCSI("medium-write-realloc", "CHECK CONDITION, MEDIUM ERROR, 0x0c/0x02 WRITE ERROR - AUTO REALLOCATION FAILED",
	     SD_FAIL, 0, CC, 0x3, 0x0c, 0x02, "ioerr", 6,
	     "scsi_error.c:715-722 (NEEDS_RETRY), " SD_RETRIES "; scsi_lib.c:735-737", 0),
	SCSI("hardware", "CHECK CONDITION, HARDWARE ERROR, 0x44/0x00 INTERNAL TARGET FAILURE",
	     SD_FAIL, 0, CC, 0x4, 0x44, 0x00, "target", 1,
	     "scsi_error.c:724-729 (no retry_hwerror: SCSIML_STAT_TGT_FAILURE), 731-738 (SUCCESS); "
	     "scsi_lib.c:727-728", 1),
	SCSI("illegal-request", "CHECK CONDITION, ILLEGAL REQUEST, 0x24/0x00 INVALID FIELD IN CDB",
	     SD_FAIL, 0, CC, 0x5, 0x24, 0x00, "target", 1,
	     "scsi_error.c:731-738 (SCSIML_STAT_TGT_FAILURE, SUCCESS); scsi_lib.c:727-728", 0),
	SCSI("aborted", "CHECK CONDITION, ABORTED COMMAND, 0x00/0x00",
	     SD_FAIL, 0, CC, 0xb, 0x00, 0x00, "ioerr", 6,
	     "scsi_error.c:652 (NEEDS_RETRY), " SD_RETRIES "; scsi_lib.c:735-737", 0),
	SCSI("aborted-dif", "CHECK CONDITION, ABORTED COMMAND, 0x10/0x01 LOGICAL BLOCK GUARD CHECK FAILED",
	     SD_FAIL, 0, CC, 0xb, 0x10, 0x01, "protection", 1,
	     "scsi_error.c:626-628 (DIF: SUCCESS); scsi_lib.c:879-883 (BLK_STS_PROTECTION)", 1),
	SCSI("aborted-cdl", "CHECK CONDITION, ABORTED COMMAND, 0x2e/0x01 COMMAND TIMEOUT BEFORE PROCESSING",
	     SD_FAIL, 0, CC, 0xb, 0x2e, 0x01, "duration_limit", 1,
	     "scsi_error.c:638-644 (SCSIML_STAT_DL_TIMEOUT, REQ_FAILFAST_DEV, RQF_QUIET); scsi_lib.c:729-730", 1),
	SCSI("data-protect-nospc", "CHECK CONDITION, DATA PROTECT, 0x27/0x07 SPACE ALLOCATION FAILED WRITE PROTECT",
	     SD_FAIL, 0, CC, 0x7, 0x27, 0x07, "nospc", 1,
	     "scsi_error.c:701-706 (thin provisioning hard threshold: SCSIML_STAT_NOSPC); scsi_lib.c:723-724", 1),
	SCSI("write-protect", "CHECK CONDITION, DATA PROTECT, 0x27/0x00 WRITE PROTECTED",
	     SD_FAIL, 0, CC, 0x7, 0x27, 0x00, "target", 1,
	     "scsi_error.c:707-712 (SCSIML_STAT_TGT_FAILURE); scsi_lib.c:727-728", 0),
	SCSI("resv-conflict", "RESERVATION CONFLICT (status 0x18)",
	     SD_FAIL, 0, 0x18, 0, 0, 0, "resv_conflict", 1,
	     "scsi_error.c:2091-2097 (SCSIML_STAT_RESV_CONFLICT, SUCCESS); scsi_lib.c:721-722", 1),
	SCSI("transport-failfast", "host byte DID_TRANSPORT_FAILFAST (0x0f)",
	     SD_FAIL, 0x0f, 0, 0, 0, 0, "transport", 1,
	     "scsi_error.c:1998-2003 (SUCCESS); scsi_lib.c:738-740 (BLK_STS_TRANSPORT)", 1),
	SCSI("no-connect", "host byte DID_NO_CONNECT (0x01)",
	     SD_FAIL, 0x01, 0, 0, 0, 0, "ioerr", 1,
	     "scsi_error.c:1969-1975 (SUCCESS); scsi_lib.c:741-742 (BLK_STS_IOERR)", 1),
	{ WB_BK_SCSI_DEBUG, "timeout", "no completion: the request times out (scsi_debug ERR_TMOUT_CMD)",
	  SD_TMOUT, 0, 0, 0, 0, 0, 0, 0, "ioerr", 3,
	  "scsi_debug.c:8457-8476 (never completed); try 1 times out: the abort is scheduled, the command "
	  "aborted and retried (scsi_error.c:259-280, 167-224); try 2 times out with the abort flag set: "
	  "the error handler runs (scsi_error.c:259-267), sd counts a medium-access timeout and it is "
	  "retried (sd.c:2194-2215); try 3: the second count offlines the disk (sd.c:2222-2230, "
	  "SD_MAX_MEDIUM_TIMEOUTS 2, sd.h:29) and the request ends with DID_TIME_OUT: BLK_STS_IOERR "
	  "(scsi_lib.c:741-742)", 0,
	  "sd offlines the disk after its second medium-access timeout (sd.c:2222-2230): every later "
	  "command fails, a file system's journal with it (scenarios/realdev/scsi-timeout.yaml)" },

	NVME("internal", "Internal Error (0x006), DNR", 0x006, 1, "ioerr", 1,
	     "core.c:309-310 (default: BLK_STS_IOERR); core.c:396-399 (DNR: COMPLETE)", 1),
	NVME("data-xfer-retried", "Data Transfer Error (0x004), no DNR", 0x004, 0, "ioerr", 6,
	     "core.c:309-310; " NV_RETRIES, 0),
	NVME("cap-exceeded", "Capacity Exceeded (0x081), DNR", 0x081, 1, "nospc", 1,
	     "core.c:278-279", 1),
	NVME("lba-range", "LBA Out of Range (0x080), DNR", 0x080, 1, "target", 1,
	     "core.c:280-283", 1),
	NVME("ns-not-ready", "Namespace Not Ready (0x082), DNR", 0x082, 1, "target", 1,
	     "core.c:280-283", 0),
	NVME("invalid-opcode", "Invalid Command Opcode (0x001), DNR", 0x001, 1, "notsupp", 1,
	     "core.c:284-288", 1),
	NVME("invalid-field", "Invalid Field in Command (0x002), DNR", 0x002, 1, "notsupp", 1,
	     "core.c:284-288", 0),
	NVME("write-fault", "Write Fault (0x280), DNR", 0x280, 1, "medium", 1,
	     "core.c:289-295", 1),
	NVME("access-denied", "Access Denied (0x286), DNR", 0x286, 1, "medium", 1,
	     "core.c:289-295", 0),
	NVME("guard-check", "End-to-end Guard Check Error (0x282), DNR", 0x282, 1, "protection", 1,
	     "core.c:296-300", 1),
	NVME("resv-conflict", "Reservation Conflict (0x083), DNR", 0x083, 1, "resv_conflict", 1,
	     "core.c:301-302", 1),
	NVME("host-path-error", "Internal Path Error (0x370), DNR", 0x370, 1, "transport", 1,
	     "core.c:303-304", 1),
	NVME("zone-too-many-active", "Too Many Active Zones (0x1bd), DNR", 0x1bd, 1, "zone_active_resource", 1,
	     "core.c:305-306", 1),
	NVME("zone-too-many-open", "Too Many Open Zones (0x1be), DNR", 0x1be, 1, "zone_open_resource", 1,
	     "core.c:307-308", 1),

	{ WB_BK_THIN, "no-space", "the pool's data device is full (error_if_no_space)",
	  0, 0, 0, 0, 0, 0, 0, 0, "nospc", 1,
	  "dm-thin.c:1547-1550 (no free block: PM_OUT_OF_DATA_SPACE), 1602-1603 (error_if_no_space: "
	  "BLK_STS_NOSPC), 1616-1623 (the bio ends with it)", 1, NULL },
};
const size_t wb_nr_natives = sizeof(wb_natives) / sizeof(wb_natives[0]);

#undef SCSI
#undef NVME

int wb_backend_by_name(const char *name)
{
	for (int i = 0; i < WB_BK__N; i++)
		if (!strcmp(wb_backends[i].name, name))
			return i;
	return -1;
}

void wb_backend_list(char *buf, size_t len, const char *last)
{
	size_t off = 0;

	buf[0] = 0;
	for (int i = 0; i < WB_BK__N && off < len; i++) {
		const char *sep = !i ? "" : i < WB_BK__N - 1 ? ", " : NULL;

		if (sep)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", sep, wb_backends[i].name);
		else
			off += (size_t)snprintf(buf + off, len - off, " %s %s", last, wb_backends[i].name);
	}
}

const struct wb_native *wb_native_by_name(int bk, const char *name)
{
	for (size_t i = 0; i < wb_nr_natives; i++)
		if (wb_natives[i].backend == bk && !strcmp(wb_natives[i].name, name))
			return &wb_natives[i];
	return NULL;
}

const struct wb_native *wb_native_for_status(int bk, const char *status)
{
	const struct wb_status *s = wb_status_by_name(status);

	for (size_t i = 0; s && i < wb_nr_natives; i++)
		if (wb_natives[i].backend == bk && wb_natives[i].canonical && !strcmp(wb_natives[i].blk, s->name))
			return &wb_natives[i];
	return NULL;
}

int wb_native_errno(const struct wb_native *n)
{
	const struct wb_status *s = wb_status_by_name(n->blk);

	return s ? s->err : -1;
}

/* the status of a rule on @bk: a name of its own, or one a row stands for */
static int check_status(int bk, const char *status, char *why, size_t len)
{
	const struct wb_backend *b = &wb_backends[bk];

	if (!b->natives || !strcmp(status, "$status") || wb_native_by_name(bk, status) ||
	    wb_native_for_status(bk, status))
		return 0;
	if (wb_status_by_name(status))
		snprintf(why, len, "%s has no status the kernel turns into BLK_STS_%s (wb_backend.c lists what "
			 "it can produce)", b->name, wb_status_by_name(status)->sfx);
	else
		snprintf(why, len, "%s has no status \"%s\"", b->name, status);
	return -1;
}

int wb_backend_check_rule(int bk, const struct wb_rule *r, int file, char *why, size_t len)
{
	const struct wb_backend *b = &wb_backends[bk];
	char ops[64];

	if (b->no_faults) {
		snprintf(why, len, "%s takes no fault step: %s", b->name, b->no_faults);
		return -1;
	}
	if ((file || r->has_sectors) && !(b->keys & (1u << WB_KEY_SECTORS))) {
		snprintf(why, len, "%s cannot aim a fault at %s: %s", b->name, file ? "a file" : "sectors",
			 b->no_range);
		return -1;
	}
	if (r->ops & ~b->ops) {
		wb_op_format(r->ops & ~b->ops, ops, sizeof(ops));
		snprintf(why, len, "%s cannot fail %s", b->name, ops);
		return -1;
	}
	for (int k = 0; k < WB_KEY__N; k++) {
		if (k == WB_KEY_SECTORS || (b->keys & (1u << k)) || wb_rule_key_is_default(r, k))
			continue;
		snprintf(why, len, "%s has no way to say %s= (it takes %s)", b->name, wb_rule_keys[k].yaml,
			 b->keys ? "ops, status and the keys its injector has" : "ops and status only");
		return -1;
	}
	/* nvme_should_fail() sets the status of a command the device has
	 * completed (nvme.h:728-731): written, then failed, whatever the
	 * rule says; it can neither hold nor drop one */
	if (bk == WB_BK_NVME && (r->delay_ms || (r->action != WB_ACT_FAIL && r->action != WB_ACT_PASS_THEN_FAIL))) {
		snprintf(why, len, "nvme's injector fails a command the device executed: action fail or "
			 "pass_then_fail (the same there), without a delay");
		return -1;
	}
	if (bk == WB_BK_NVME && r->prob % 10000) {
		snprintf(why, len, "nvme's probability is whole percent: prob= must be a multiple of 10000 ppm");
		return -1;
	}
	return check_status(bk, r->status, why, len);
}

int wb_native_sd_line(const struct wb_native *n, unsigned int opcode, unsigned long times,
		      char *buf, size_t len)
{
	long cnt = times && times < WB_SD_UNLIMITED ? -(long)times : -(long)WB_SD_UNLIMITED;
	int w;

	if (n->sd_type == SD_TMOUT)
		w = snprintf(buf, len, "%d %ld 0x%02x", n->sd_type, cnt, opcode);
	else
		w = snprintf(buf, len, "%d %ld 0x%02x 0x%02x 0x00 0x%02x 0x%x 0x%02x 0x%02x", n->sd_type, cnt,
			     opcode, n->sd_host, n->sd_status, n->sd_key, n->sd_asc, n->sd_ascq);
	return w < 0 || (size_t)w >= len ? -1 : w;
}
