// SPDX-License-Identifier: GPL-2.0
/* The errseq model of files, fds and processes, and the judgement rules. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include "oracle.h"
#include "wb_test.h"

static struct oracle o;

static int fsync_of(const char *proc, const char *fd)
{
	struct or_pred p;

	if (oracle_sync(&o, OP_FSYNC, proc, fd, 0, &p))
		return -1000;
	return p.err;
}

static int syncfs_of(const char *proc, const char *fd)
{
	struct or_pred p;

	if (oracle_sync(&o, OP_SYNCFS, proc, fd, 0, &p))
		return -1000;
	return p.err;
}

static void test_every_open_fd_sees_error_exactly_once(void)
{
	int f;

	oracle_init(&o, FS_EXT4);
	oracle_open(&o, "main", "a", "f", O_RDWR | O_CREAT);
	oracle_open(&o, "main", "b", "f", O_RDWR);
	f = oracle_inode(&o, "f", 0);
	oracle_record(&o, f, EIO);
	is_int(EIO, fsync_of("main", "a"), "fd a sees EIO");
	is_int(0, fsync_of("main", "a"), "fd a sees it once");
	is_int(EIO, fsync_of("main", "b"), "fd b, open at the failure, sees it too");
	is_int(0, fsync_of("main", "b"), "once");
	oracle_record(&o, f, ETIMEDOUT);
	is_int(ETIMEDOUT, fsync_of("main", "b"), "a second error is reported again, with its errno");
	is_int(ETIMEDOUT, fsync_of("main", "a"), "to every fd");
}

static void test_open_after_unseen_error_gets_it_once(void)
{
	int f;

	oracle_init(&o, FS_EXT4);
	oracle_open(&o, "main", "a", "f", O_RDWR | O_CREAT);
	f = oracle_inode(&o, "f", 0);
	oracle_close(&o, "main", "a");
	oracle_record(&o, f, EIO);
	oracle_open(&o, "main", "c", "f", O_RDWR);
	is_int(EIO, fsync_of("main", "c"), "an fd opened after an unseen error gets it");
	is_int(0, fsync_of("main", "c"), "once");
	oracle_open(&o, "main", "d", "f", O_RDWR);
	is_int(0, fsync_of("main", "d"), "a seen error is not replayed to a later opener");
}

static void test_dup_and_fork_share_the_cursor(void)
{
	int f;

	oracle_init(&o, FS_XFS);
	oracle_open(&o, "main", "a", "f", O_RDWR | O_CREAT);
	oracle_dup(&o, "main", "a", "a2");
	oracle_fork(&o, "main", "kid");
	f = oracle_inode(&o, "f", 0);
	oracle_record(&o, f, EIO);
	is_int(EIO, fsync_of("kid", "a"), "the child's inherited fd reports it");
	is_int(0, fsync_of("main", "a"), "the parent's fd shares the open file description: nothing left");
	is_int(0, fsync_of("main", "a2"), "neither does a dup");
}

static void test_separate_opens_in_two_processes(void)
{
	int f;

	oracle_init(&o, FS_EXT4);
	oracle_proc(&o, "p2");
	oracle_open(&o, "main", "a", "f", O_RDWR | O_CREAT);
	oracle_open(&o, "p2", "b", "f", O_RDWR);
	f = oracle_inode(&o, "f", 0);
	oracle_record(&o, f, ENOSPC);
	is_int(ENOSPC, fsync_of("p2", "b"), "process 2 sees ENOSPC");
	is_int(ENOSPC, fsync_of("main", "a"), "process 1 too");
}

static void test_errors_do_not_leak_to_other_files(void)
{
	oracle_init(&o, FS_EXT4);
	oracle_open(&o, "main", "a", "f", O_RDWR | O_CREAT);
	oracle_open(&o, "main", "b", "g", O_RDWR | O_CREAT);
	oracle_record(&o, oracle_inode(&o, "f", 0), EIO);
	is_int(0, fsync_of("main", "b"), "g sees nothing");
	is_int(EIO, fsync_of("main", "a"), "f sees EIO");
}

static void test_syncfs_has_its_own_cursor(void)
{
	oracle_init(&o, FS_EXT4);
	oracle_open(&o, "main", "a", "f", O_RDWR | O_CREAT);
	oracle_open(&o, "main", "b", "g", O_RDWR | O_CREAT);
	oracle_record(&o, oracle_inode(&o, "f", 0), EIO);
	is_int(EIO, fsync_of("main", "a"), "fsync consumes f_wb_err");
	is_int(EIO, syncfs_of("main", "a"), "syncfs still reports through f_sb_err");
	is_int(0, syncfs_of("main", "a"), "once");
	is_int(EIO, syncfs_of("main", "b"), "an fd of another file on the same fs sees it via syncfs");
}

static void test_raw_syncfs_looks_at_devtmpfs(void)
{
	oracle_init(&o, FS_RAW);
	oracle_open(&o, "main", "d", "@dev", O_RDWR);
	oracle_record(&o, oracle_inode(&o, "@dev", 0), EIO);
	is_int(0, syncfs_of("main", "d"), "syncfs on a device node checks devtmpfs's s_wb_err");
	is_int(EIO, fsync_of("main", "d"), "fsync on the device reports the bdev mapping's error");
}

static void test_msync_uses_the_mmap_time_file(void)
{
	struct or_pred p;

	oracle_init(&o, FS_EXT4);
	oracle_open(&o, "main", "a", "f", O_RDWR | O_CREAT);
	oracle_mmap(&o, "main", "a");
	oracle_close(&o, "main", "a");
	oracle_record(&o, oracle_inode(&o, "f", 0), EIO);
	oracle_sync(&o, OP_MSYNC, "main", "a", MS_ASYNC, &p);
	is_int(0, p.valid, "MS_ASYNC does not look at errors");
	oracle_sync(&o, OP_MSYNC, "main", "a", MS_SYNC, &p);
	is_int(EIO, p.err, "MS_SYNC reports through the mapping's file after close");
	oracle_sync(&o, OP_MSYNC, "main", "a", MS_SYNC, &p);
	is_int(0, p.err, "once");
}

static void test_sync_file_range_only_waits_check(void)
{
	struct or_pred p;

	oracle_init(&o, FS_XFS);
	oracle_open(&o, "main", "a", "f", O_RDWR | O_CREAT);
	oracle_record(&o, oracle_inode(&o, "f", 0), EIO);
	oracle_sync(&o, OP_SYNC_FILE_RANGE, "main", "a", SYNC_FILE_RANGE_WRITE, &p);
	is_int(0, p.valid, "SYNC_FILE_RANGE_WRITE alone never checks");
	oracle_sync(&o, OP_SYNC_FILE_RANGE, "main", "a", SYNC_FILE_RANGE_WAIT_AFTER, &p);
	is_int(EIO, p.err, "WAIT_AFTER reports and advances the fsync cursor");
	is_int(0, fsync_of("main", "a"), "so fsync does not see it again");
}

static void test_o_sync_write_is_a_sync_call(void)
{
	struct or_pred p;

	oracle_init(&o, FS_EXT4);
	oracle_open(&o, "main", "a", "f", O_RDWR | O_CREAT | O_DSYNC);
	oracle_open(&o, "main", "b", "f", O_RDWR);
	oracle_record(&o, oracle_inode(&o, "f", 0), EIO);
	oracle_sync(&o, OP_PWRITE, "main", "b", 0, &p);
	is_int(0, p.valid, "a plain write does not check");
	oracle_sync(&o, OP_PWRITE, "main", "a", 0, &p);
	is_int(EIO, p.err, "an O_DSYNC write reports like fsync (generic_write_sync)");
}

static void test_eviction_and_umount_lose_the_error(void)
{
	oracle_init(&o, FS_EXT4);
	oracle_open(&o, "main", "a", "f", O_RDWR | O_CREAT);
	oracle_open(&o, "main", "b", "g", O_RDWR | O_CREAT);
	oracle_close(&o, "main", "a");
	oracle_record(&o, oracle_inode(&o, "f", 0), EIO);
	oracle_record(&o, oracle_inode(&o, "g", 0), EIO);
	oracle_drop_caches(&o, 3);
	oracle_open(&o, "main", "c", "f", O_RDWR);
	is_int(0, fsync_of("main", "c"), "an evicted inode forgets its error");
	is_int(EIO, fsync_of("main", "b"), "an inode held open keeps it");
	oracle_close(&o, "main", "b");
	oracle_close(&o, "main", "c");
	oracle_record(&o, oracle_inode(&o, "f", 0), EIO);
	oracle_umount(&o);
	oracle_open(&o, "main", "d", "f", O_RDWR);
	is_int(0, fsync_of("main", "d"), "a remount starts afresh");
	is_int(0, syncfs_of("main", "d"), "super block too");
}

static void test_unlink_then_create_is_another_inode(void)
{
	oracle_init(&o, FS_EXT4);
	oracle_open(&o, "main", "a", "f", O_RDWR | O_CREAT);
	oracle_record(&o, oracle_inode(&o, "f", 0), EIO);
	oracle_unlink(&o, "f");
	oracle_open(&o, "main", "b", "f", O_RDWR | O_CREAT);
	is_int(0, fsync_of("main", "b"), "the new file has no error");
	is_int(EIO, fsync_of("main", "a"), "the unlinked one still reports to its fd");
}

static void test_judge(void)
{
	struct step st;
	struct or_pred p = { .valid = 1, .err = EIO };
	struct verdict v;

	memset(&st, 0, sizeof(st));
	for (int i = 0; i < FS__N; i++)
		st.expect.err[i] = EXPECT_UNSET;
	oracle_judge(&p, EIO, &st, FS_EXT4, 0, 0, &v);
	is_int(1, v.pass, "model EIO, kernel EIO: pass");
	oracle_judge(&p, 0, &st, FS_EXT4, 0, 0, &v);
	is_int(0, v.pass, "model EIO, kernel 0: a lost error fails");
	ok(strstr(v.msg, "lost") != NULL, "and says so: %s", v.msg);
	p.err = 0;
	oracle_judge(&p, EIO, &st, FS_EXT4, 0, 0, &v);
	is_int(0, v.pass, "model 0, kernel EIO: a replayed error fails");
	oracle_judge(&p, EIO, &st, FS_EXT4, 0, 1, &v);
	is_int(0, v.pass, "an error from a flush fault needs an explicit expectation");
	st.expect.set = 1;
	st.expect.err[FS_EXT4] = EIO;
	oracle_judge(&p, EIO, &st, FS_EXT4, 0, 1, &v);
	is_int(0, v.pass, "an explicit expectation that contradicts the model needs 'why'");
	strcpy(st.why, "ext4_sync_file() returns blkdev_issue_flush()'s error");
	oracle_judge(&p, EIO, &st, FS_EXT4, 0, 1, &v);
	is_int(1, v.pass, "with the reason it passes");
	st.expect.err[FS_XFS] = -2;
	oracle_judge(&p, ETIMEDOUT, &st, FS_XFS, ETIMEDOUT, 0, &v);
	is_int(1, v.pass, "$errno resolves to the matrix status's errno");
	oracle_judge(NULL, ENOSPC, &st, FS_RAW, 0, 0, &v);
	is_int(0, v.pass, "a non-sync call without expectation must succeed");
}

static void test_btrfs_fsync_returns_the_legacy_flags(void)
{
	struct or_pred p;
	struct step st;
	struct verdict v;

	memset(&st, 0, sizeof(st));
	for (int i = 0; i < FS__N; i++)
		st.expect.err[i] = EXPECT_UNSET;
	oracle_init(&o, FS_BTRFS);
	oracle_open(&o, "main", "a", "f", O_RDWR | O_CREAT);
	oracle_open(&o, "main", "b", "f", O_RDWR);
	oracle_record(&o, oracle_inode(&o, "f", 0), ETIMEDOUT);
	oracle_sync(&o, OP_FSYNC, "main", "a", 0, &p);
	is_int(ETIMEDOUT, p.err, "the cursor consumes ETIMEDOUT");
	is_int(EIO, p.flag_err, "but btrfs fsync returns AS_EIO as -EIO");
	oracle_judge(&p, EIO, &st, FS_BTRFS, 0, 0, &v);
	is_int(1, v.pass, "so EIO is the expected return");
	oracle_sync(&o, OP_FSYNC, "main", "b", 0, &p);
	is_int(ETIMEDOUT, p.err, "the second fd's cursor still has it");
	is_int(0, p.flag_err, "the flags were cleared by the first check");
	oracle_record(&o, oracle_inode(&o, "f", 0), ENOSPC);
	oracle_sync(&o, OP_FSYNC, "main", "a", 0, &p);
	is_int(ENOSPC, p.flag_err, "AS_ENOSPC alone gives ENOSPC");
	oracle_record(&o, oracle_inode(&o, "f", 0), ETIMEDOUT);
	oracle_record(&o, oracle_inode(&o, "f", 0), ENOSPC);
	oracle_sync(&o, OP_FSYNC, "main", "a", 0, &p);
	is_int(ENOSPC, p.err, "errseq keeps the latest errno");
	is_int(EIO, p.flag_err, "filemap_check_errors() tests AS_EIO last: EIO");
}

int main(void)
{
	test_every_open_fd_sees_error_exactly_once();
	test_open_after_unseen_error_gets_it_once();
	test_dup_and_fork_share_the_cursor();
	test_separate_opens_in_two_processes();
	test_errors_do_not_leak_to_other_files();
	test_syncfs_has_its_own_cursor();
	test_raw_syncfs_looks_at_devtmpfs();
	test_msync_uses_the_mmap_time_file();
	test_sync_file_range_only_waits_check();
	test_o_sync_write_is_a_sync_call();
	test_eviction_and_umount_lose_the_error();
	test_unlink_then_create_is_another_inode();
	test_judge();
	test_btrfs_fsync_returns_the_legacy_flags();
	return tap_done();
}
