// SPDX-License-Identifier: GPL-2.0
/*
 * wberr_leak_control: the positive control that proves kmemleak reports on
 * the debug kernel (tests/debug-controls/001).
 *
 * kmemleak is a conservative collector: any word in scanned memory whose
 * value points into an object counts as a reference, and stale values are
 * everywhere (uninitialised bytes of live objects, SLUB free pointers,
 * KASAN quarantine links, dead stack frames).  A genuine leak is reported
 * only while no such value happens to point into it.  Measured under our
 * debug config: of 64 zeroed objects leaked from a cache of their own,
 * kmemleak reported anything from 64 down to 0 per batch, and the kernel's
 * own sample (samples/kmemleak) went unreported in 3 runs of 5.  "kmemleak
 * found a deliberate leak" is therefore no reliable check.
 *
 * What can be checked reliably is the path a suite's leak takes to the
 * harness: the scan completes, ages the objects, finds one with fewer
 * references than its minimum, and reports it with its allocation
 * backtrace.  This module registers one page with kmemleak_alloc() and a
 * minimum reference count that no amount of stale memory can reach, so
 * every scan must report it, whatever else memory holds.  It is freed, and
 * unregistered, when the module is unloaded.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/kmemleak.h>
#include <linux/limits.h>
#include <linux/module.h>

/* More references than all of memory could hold to one page by chance. */
#define PINNED_MIN_COUNT INT_MAX

static void *pinned_block;

/*
 * Not __init, and not inlined into the init function: kmemleak names the
 * caller of kmemleak_alloc() as the allocation site, and init text is gone
 * by the time of the scan, which would leave that frame an unnamed address.
 * (The call is not the last thing here either, or it would be a tail call
 * and this frame would vanish too.)
 */
static noinline int register_pinned_block(void)
{
	/* Page allocations are not tracked: kmemleak learns of it here only. */
	pinned_block = (void *)get_zeroed_page(GFP_KERNEL);
	if (!pinned_block)
		return -ENOMEM;

	kmemleak_alloc(pinned_block, PAGE_SIZE, PINNED_MIN_COUNT, GFP_KERNEL);
	return 0;
}

static int __init wberr_leak_control_init(void)
{
	int ret;

	ret = register_pinned_block();
	if (ret)
		return ret;

	pr_info("registered one page that every kmemleak scan must report\n");
	return 0;
}
module_init(wberr_leak_control_init);

static void __exit wberr_leak_control_exit(void)
{
	kmemleak_free(pinned_block);
	free_page((unsigned long)pinned_block);
}
module_exit(wberr_leak_control_exit);

MODULE_DESCRIPTION("Positive control for kmemleak: a page it must report");
MODULE_LICENSE("GPL");
