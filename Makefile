# SPDX-License-Identifier: GPL-2.0
#
# wberr: does fsync() tell the truth?  See README.md.
#
#   make run     build everything, boot the guest, run the default scenario suite
#   make test    build everything, run host unit tests and every guest suite
#
# Both install missing Debian packages (make deps), build what is stale and
# reuse what is fresh.  The kernel tree lives in $(WBERR_CACHE), outside the
# clone; everything else is built under build/.

SHELL := /bin/bash
.DEFAULT_GOAL := help

# The builds in parallel over the host's cores unless make was given -j
# (docs/measurements.md); a make run
# by this one (make test's shards) shares its jobs; make shell keeps one
# job, as it hands the terminal to the guest.
ifeq ($(MAKELEVEL)$(filter -j%,$(MAKEFLAGS))$(filter shell,$(MAKECMDGOALS)),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif

TOP       := $(CURDIR)
BUILD     := $(TOP)/build
KCONFIG   ?= default
export KCONFIG
WBERR_CACHE ?= $(HOME)/.cache/wberr
export WBERR_CACHE

# The kernel under test: patched (our 6.12 build with kernel/patches, the
# default), unpatched (the same source and config without the series, in a
# tree of its own), debian-6.12 or debian-6.1 (Debian's shipped linux-image
# packages, fetched by kernel/debian.sh; modular, unpatched, no debug
# flavour), or debian:linux-image-<release>-amd64 for any other image
# package your apt sources offer (kernel/README.md).
KERNEL    ?= patched
# our own builds (kernel/build.sh) as against Debian's packages
OWN_BUILD := $(filter patched unpatched,$(KERNEL))
KBUILD_ARGS := $(if $(filter unpatched,$(KERNEL)),--unpatched)
ifeq ($(KERNEL),patched)
KSTEM     := $(KCONFIG)
else ifeq ($(KERNEL),unpatched)
KSTEM     := $(KCONFIG)-unpatched
else ifneq ($(filter debian-6.12 debian-6.1 debian:linux-image-%-amd64,$(KERNEL)),)
ifneq ($(KCONFIG),default)
$(error KCONFIG=$(KCONFIG) needs KERNEL=patched: Debian's kernels come as they are shipped)
endif
KSTEM     := $(subst :,-,$(KERNEL))
else
$(error KERNEL=$(KERNEL): say patched, unpatched, debian-6.12, debian-6.1 or debian:linux-image-<release>-amd64)
endif

# each kernel's results directory: build/results for ours, build/results-<kernel>
results_of = $(BUILD)/results$(if $(filter patched,$(1)),,-$(subst :,-,$(1)))
GUEST_BIN := $(BUILD)/guest-bin
# dm-wberr is compiled in a copy under build/, one per flavour and kernel:
# Kbuild writes its objects next to the sources, and .ko files for two
# kernels must not mix.
KMOD_SRC  := $(BUILD)/kmod-$(KSTEM)
MODDIR    := $(BUILD)/modules-$(KSTEM)
# make test SHARD=I/N: a deterministic 1/N of every suite's work (the host
# tests and each guest boot's tests by position, k % N == I-1; the scenario
# library's and the apps boot's instances in N runs of about equal cost
# ordered by file-system kind, wberr-run --shard), into a results
# directory of its own;
# harness/merge-shards.sh makes one report of the N (README, "Shards").
SHARD     ?=
ifneq ($(SHARD),)
ifeq ($(shell . $(TOP)/lib/sh/shard.sh && shard_parse '$(SHARD)' 2>/dev/null && echo ok),)
$(error SHARD=$(SHARD): say I/N with 1 <= I <= N, for example SHARD=2/4)
endif
endif
SHARD_APPEND := $(if $(SHARD),--append wberr_shard=$(SHARD))
RESULTS   := $(call results_of,$(KERNEL))$(if $(SHARD),-shard-$(subst /,-of-,$(SHARD)))
IMAGE     := $(BUILD)/initramfs-$(KSTEM).cpio
# The apps disk (harness/mkapps.sh): sqlite3 and PostgreSQL 15 unpacked, for
# the tests that say `# wberr-requires: apps`; built and cached in
# $(WBERR_CACHE)/apps-<key>/, copied here.
APPS_IMG  := $(BUILD)/apps.img
# Emulated persistent memory (a QEMU nvdimm backed by a sparse file, fsdax
# in the guest) for the boots whose tests say `# wberr-requires: pmem` or
# `# wberr-uses: pmem` (tests/README.md), and an emulated NVMe disk for
# those that say `nvme` (the `backend: nvme` scenarios): $(call hw_for,SEL)
# asks run-suites which hardware the tests SEL selects declare.
PMEM_ARGS := --pmem 512M
NVME_ARGS := --nvme 512M
hw_needs = $(shell WBERR_TESTS_DIR=$(TOP)/tests sh $(TOP)/harness/guest/run-suites --needs $(1))
hw_for = $(strip $(if $(filter pmem,$(hw_needs)),$(PMEM_ARGS)) $(if $(filter nvme,$(hw_needs)),$(NVME_ARGS)))
pmem_for = $(if $(filter pmem,$(hw_needs)),$(PMEM_ARGS))
# more Debian packages on it, for your own program (docs/testing-your-program.md)
APPS_PACKAGES ?=
export WBERR_APPS_PACKAGES := $(APPS_PACKAGES)
# The debug kernel (KASAN, lockdep, kmemleak) runs several times slower
# under TCG; its suites get proportionally longer timeouts.
# So do its stall detectors: KASAN records a stack for every allocation, and
# the AML interpreter setting up the PCI interrupt links at boot keeps the
# CPU for over 20 s (measured), which the default 21 s RCU stall timeout
# reports as a stall; a busy host stretched the same boot into a 71 s soft
# lockup.  The detectors stay on, with their thresholds raised (the
# soft-lockup one to its maximum, 2 x 60 s).
ifeq ($(KCONFIG),debug)
TIMEOUT_SCALE := 4
GUEST_APPEND := rcupdate.rcu_cpu_stall_timeout=120 sysctl.kernel.hung_task_timeout_secs=600 \
	watchdog_thresh=60
else
TIMEOUT_SCALE := 1
GUEST_APPEND :=
endif
# File-system templates kept across boots (run-guest --templates): a
# warm run restores each kind's mkfs output instead of running mkfs under
# TCG (docs/measurements.md, "Templates kept across boots").  In the
# cache beside the kernel, so that a fresh clone has them too: a
# template's key holds all it depends on (tools/wberr-run/stack.h).
TEMPLATE_ARGS := --templates $(WBERR_CACHE)/fs-templates
# What each scenario instance took in the last three whole-library make
# runs of our kernel on this machine (their results.json, 1.json the
# newest): the boots that shard the library (make run's, make test's)
# weigh their shards by the median (wberr-run --costs, tests/scenarios/001),
# so that they end together, and one slow run does not skew the next cut.
# None (a cold cache): the scenarios' cost: keys.
SCENARIO_COSTS := $(WBERR_CACHE)/scenario-costs
COSTS_ARGS = $(if $(wildcard $(SCENARIO_COSTS)/*.json),--payload $(SCENARIO_COSTS))
SAVE_COSTS = $(if $(RUN_OWN)$(filter-out patched,$(KERNEL)),:,[ ! -s $(RESULTS)/results.json ] || \
	{ d=$(SCENARIO_COSTS); mkdir -p $$d && { [ ! -f $$d/2.json ] || mv $$d/2.json $$d/3.json; } && \
	{ [ ! -f $$d/1.json ] || mv $$d/1.json $$d/2.json; } && cp $(RESULTS)/results.json $$d/1.json; })
GUEST_TIMEOUT_ARGS = --timeout $$(( $${WBERR_TEST_TIMEOUT:-2400} * $(TIMEOUT_SCALE) )) \
	--append "wberr_timeout_scale=$(TIMEOUT_SCALE) $(GUEST_APPEND)"

# The kernel tree for the selected flavour; computed lazily (the key hashes
# the patch series and config, so it changes whenever they do).  Make 4.3
# does not pass exported variables to $(shell), hence the explicit ones.
KTREE = $(shell KCONFIG=$(KCONFIG) WBERR_CACHE=$(WBERR_CACHE) $(TOP)/kernel/build.sh $(KBUILD_ARGS) --print-tree)
# A Debian kernel's directory in the cache (kernel/debian.sh: vmlinuz,
# headers, root/lib/modules), computed at its first use (after `kernel`,
# which runs apt-get update if apt knows no such package) and then kept:
# each call asks apt, about 1 s.
DEBDIR = $(eval DEBDIR := $(shell WBERR_CACHE=$(WBERR_CACHE) $(TOP)/kernel/debian.sh --kernel $(KERNEL) --print-dir))$(DEBDIR)
# What run-guest boots and what mkimage.sh takes the kernel's files from.
# Our build without the series says so on its command line: the tests of
# the series skip there (harness/guest/lib.sh, wberr_need_series), where on
# KERNEL=patched its absence is a failure.
ifneq ($(OWN_BUILD),)
GUEST_KERNEL = --kernel-tree $(KTREE)$(if $(filter unpatched,$(KERNEL)), --append wberr_kernel=unpatched)
IMAGE_KERNEL = --kernel-tree $(KTREE)
else
GUEST_KERNEL = --kernel $(DEBDIR)/vmlinuz
IMAGE_KERNEL = --debian $(DEBDIR)
endif

CC        ?= gcc
GUEST_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE

DEB_PACKAGES := linux-source-6.12 build-essential flex bison bc libelf-dev \
	libssl-dev cpio kmod qemu-system-x86 busybox-static dmsetup lvm2 \
	libdevmapper-dev libyaml-dev fio e2fsprogs xfsprogs btrfs-progs \
	xz-utils python3 util-linux patch

.PHONY: help deps kernel module tools guest-tools image apps run test unit-test \
	guest-test test-shard bench soak shell compare clean distclean check-runner

help:
	@echo "make run    - build everything, boot the guest, run the default scenarios"
	@echo "make test   - the full test suite (host unit tests + guest suites)"
	@echo "make bench  - benchmarks: -icount ratios, virtio fio latency, boot and suite times (build/results/bench.md)"
	@echo "make shell  - boot the guest with a shell on the console"
	@echo "make deps | deps-browser | kernel | module | kselftest | tools | image | apps | clean"
	@echo "KCONFIG=debug selects the debug kernel (KASAN, lockdep, kmemleak)"
	@echo "make test SHARD=I/N - one of N shards; harness/merge-shards.sh OUT DIRS... merges their reports"
	@echo "make test JOBS=N    - the N shards at once on this machine, merged into build/results (default: cores + 1, at most 4)"
	@echo "KERNEL=debian-6.12|debian-6.1 tests Debian's shipped kernel instead of ours (KERNEL=patched)"
	@echo "make report-card - real applications under write-back faults: docs/report-card.md and .csv"
	@echo "make compare KERNELS='patched debian-6.12 debian-6.1' - make run on each, one side-by-side table (build/compare/compare.md)"

# Idempotent: only asks apt for what dpkg says is missing.
# $(call deb_install,PACKAGES,WHAT): the recipe that installs the missing ones.
define deb_install
	@missing=$$(for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "[deps] installing$(2):" $$missing; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -qq || { echo "[deps] error: apt-get update failed (status $$?): is Debian's archive reachable?" >&2; exit 1; }; \
		log=$$(mktemp); \
		apt-get install -y -qq --no-install-recommends $$missing > $$log 2>&1 || { rc=$$?; tail -n 20 $$log >&2; \
			echo "[deps] error: apt-get install failed (status $$rc) installing: $$missing" >&2; rm -f $$log; exit 1; }; \
		rm -f $$log; \
	else echo "[deps] all Debian packages$(2) present"; fi
endef

deps:
	$(call deb_install,$(DEB_PACKAGES),)

# The results page's browser test (harness/tests/page-selftest.py) renders
# the page in Debian's headless Chromium; run-host-tests.sh asks for it only
# when that test runs, so make run never installs a browser.
BROWSER_PACKAGES := chromium fonts-dejavu-core
.PHONY: deps-browser
deps-browser:
	$(call deb_install,$(BROWSER_PACKAGES), for the browser test)

ifneq ($(OWN_BUILD),)
kernel: deps
	@$(TOP)/kernel/build.sh $(KBUILD_ARGS)
else
# Downloads and unpacks the packages once (debian-6.12 118 MiB, debian-6.1
# 80 MiB), then says "up to date".
kernel: deps
	@$(TOP)/kernel/debian.sh --kernel $(KERNEL) > /dev/null
endif

# Built with it: the debug kernel's kmemleak positive control, a module
# that registers a page kmemleak must report (kernel/tests/leak-control).
LEAK_CONTROL := $(TOP)/kernel/tests/leak-control

# fresh: nothing newer than what the last build left (kbuild takes a
# second under make run just to say so)
fresh_since = [ -f $(1) ] && [ -z "$$(find $(2) -newer $(1) 2>/dev/null | head -n 1)" ]

ifneq ($(OWN_BUILD),)
module: kernel
	@mkdir -p $(MODDIR) $(KMOD_SRC)
	@$(call fresh_since,$(MODDIR)/.built,$(TOP)/dm-wberr $(LEAK_CONTROL) $(KTREE)/Module.symvers) || { \
	cp -p $(TOP)/dm-wberr/*.c $(TOP)/dm-wberr/*.h $(LEAK_CONTROL)/*.c $(KMOD_SRC)/ && \
	cat $(TOP)/dm-wberr/Kbuild $(LEAK_CONTROL)/Kbuild > $(KMOD_SRC)/Kbuild && \
	$(MAKE) -s -C $(KTREE) ARCH=x86_64 M=$(KMOD_SRC) modules && \
	cp $(KMOD_SRC)/*.ko $(MODDIR)/ && touch $(MODDIR)/.built; }
else
# Against the shipped kernel's own headers (kernel/debian.sh unpacks them
# with their kbuild tools and makes their paths relative).  No BTF for the
# module: that needs pahole, and nothing here reads a module's BTF.  The
# kmemleak control is for our debug kernel only.
module: kernel
	@rm -rf $(MODDIR); mkdir -p $(MODDIR) $(KMOD_SRC)
	@cp -p $(TOP)/dm-wberr/*.c $(TOP)/dm-wberr/*.h $(TOP)/dm-wberr/Kbuild $(KMOD_SRC)/
	@$(MAKE) -s -C $(DEBDIR)/headers/ M=$(KMOD_SRC) CONFIG_DEBUG_INFO_BTF_MODULES= modules
	@cp $(KMOD_SRC)/dm-wberr.ko $(MODDIR)/
endif

# Guest-side helper programs that live next to the tests that use them.
GUEST_TOOL_SRCS := $(filter-out %/wberr-names.c,$(wildcard $(TOP)/tools/guest/*.c))
GUEST_TOOLS := $(patsubst %.c,$(GUEST_BIN)/%,$(notdir $(GUEST_TOOL_SRCS)))
vpath %.c $(TOP)/tools/guest

# Every C program links lib/c's archive (lib/README.md); its own Makefile
# decides whether the archive is stale and installs wberr-names.
LIBWB := $(BUILD)/lib/libwb.a
GUEST_CFLAGS += -I$(TOP)/lib/c -I$(TOP)/dm-wberr

# Nothing compiles before deps has installed the headers and tools: under
# -j, a prerequisite listed beside deps would start beside it.  Every C
# program here waits for libwb.a, and so for deps too.
.PHONY: FORCE
$(LIBWB): FORCE | deps
	@$(MAKE) -s -C $(TOP)/lib/c BUILD=$(BUILD) GUEST_BIN=$(GUEST_BIN)

$(GUEST_BIN)/%: %.c $(LIBWB)
	@mkdir -p $(GUEST_BIN)
	$(CC) $(GUEST_CFLAGS) -o $@ $< $(LIBWB) $(GUEST_LDLIBS)

# lib/c's wb_dm drives dm through libdevmapper
$(GUEST_BIN)/wberr-rulemodel: GUEST_LDLIBS += -ldevmapper
# The programs the guest tests start once a check (the dm-wberr tests'
# "dmsetup message", one I/O with its errno): static, so that one starts in
# 5 ms under TCG, not the 30-50 ms a dynamic one spends in the loader
# (lib/c/wb_dmmsg.h, docs/measurements.md)
$(GUEST_BIN)/wberr-dmmsg $(GUEST_BIN)/wberr-dio: GUEST_LDLIBS += -static

guest-tools: $(LIBWB) $(GUEST_TOOLS)

tools: deps guest-tools
	@$(MAKE) -s -C $(TOP)/tools/wberr-run BUILD=$(BUILD) GUEST_BIN=$(GUEST_BIN)
	@$(MAKE) -s -C $(TOP)/tools/wberr-stress BUILD=$(BUILD) GUEST_BIN=$(GUEST_BIN)

# The series' own kselftest (kernel/patches 0006,
# tools/testing/selftests/filesystems/wb_err), built from the kernel tree
# with its kselftest Makefile for the guest (tests/errseq-patches/002).
# Against the host's libc headers (KHDR_INCLUDES empty): the tree has no
# headers_install, and the test needs only <linux/loop.h>.  Nothing where
# the tree has no such directory (KERNEL=unpatched) or there is no tree
# (a Debian kernel): the test is a SKIP there.
KSELFTEST := $(BUILD)/kselftest-$(KSTEM)
KSELFTEST_DIRS := filesystems/wb_err
.PHONY: kselftest
KSELFTEST_SRCS = $(wildcard $(KSELFTEST_DIRS:%=$(KTREE)/tools/testing/selftests/%))
kselftest: kernel
	@$(if $(OWN_BUILD),$(call fresh_since,$(KSELFTEST)/.built,$(KSELFTEST_SRCS) $(KTREE)/Module.symvers) || { \
	rm -rf $(KSELFTEST); mkdir -p $(KSELFTEST); for d in $(KSELFTEST_SRCS); do \
		$(MAKE) -s -C $$d OUTPUT=$(KSELFTEST) KHDR_INCLUDES= || exit 1; \
	done; touch $(KSELFTEST)/.built; },rm -rf $(KSELFTEST); mkdir -p $(KSELFTEST))

image: kernel module tools kselftest
	@$(TOP)/harness/mkimage.sh $(IMAGE_KERNEL) --modules $(MODDIR) --kselftests $(KSELFTEST) --out $(IMAGE)

# Downloads the Debian packages once (about 41 MiB), then reuses the cache.
# harness/host-tools.sh asks wberr-names (built by lib/c) for the mkfs programs.
apps: $(LIBWB)
	@$(TOP)/harness/mkapps.sh --out $(APPS_IMG)

unit-test: tools
	@$(TOP)/harness/tests/run-host-tests.sh $(RESULTS)

# Everything: host unit tests, runner self-checks, then one guest boot that
# runs every suite without optional hardware (one vCPU, no apps disk, no
# nvdimm: a test that needs some and does not say so fails there), one
# with the nvdimm for the tests that require or use it, one with 2 vCPUs
# for the suites that want them, one with the apps disk for the tests that
# require it and, on the debug kernel, one for the positive controls of
# KASAN, lockdep and kmemleak.  The last line is the totals over all TAP
# files.
#
# JOBS=N runs that as N shards at once (SHARD=1/N .. N/N, each its own
# boots, one vCPU each), then merges them into $(RESULTS) with
# harness/merge-shards.sh: the same tests, spread over the host's cores.
# By default one more than the host's cores when it has two or more: a
# guest that sleeps in a test leaves its core idle, and the extra shard
# fills it (docs/measurements.md, "make test under 6 minutes").  At most
# 4, and at most one per 3 GiB of available memory (a guest has 2 GiB and
# a 512 MiB nvdimm).  SHARD= is one shard: one job.
DEFAULT_JOBS := $(shell n=$$(nproc 2>/dev/null || echo 1); \
	m=$$(awk '/^MemAvailable:/ { print int($$2 / 3145728) }' /proc/meminfo 2>/dev/null); \
	j=$$((n + 1)); [ "$$n" -ge 2 ] || j=1; [ "$$j" -le 4 ] || j=4; \
	[ -z "$$m" ] || [ "$$j" -le "$$m" ] || j=$$m; [ "$$j" -ge 1 ] || j=1; echo $$j)
JOBS ?= $(if $(SHARD),1,$(DEFAULT_JOBS))
ifneq ($(shell echo '$(JOBS)' | grep -xE '[1-9][0-9]?'),$(JOBS))
$(error JOBS=$(JOBS): say a number of parallel shards from 1 to 99)
endif
ifneq ($(JOBS)$(SHARD),1$(SHARD))
ifneq ($(SHARD),)
$(error SHARD=$(SHARD) and JOBS=$(JOBS): a shard runs as one job; say one or the other)
endif
endif

ifeq ($(JOBS),1)
test: image apps
	@$(MAKE) --no-print-directory test-shard
else
test: image apps
	@rm -rf $(RESULTS); pids=; \
	for i in $$(seq 1 $(JOBS)); do \
		$(MAKE) --no-print-directory test-shard SHARD=$$i/$(JOBS) JOBS=1 2>&1 | sed -u "s|^|[$$i/$(JOBS)] |" & pids="$$pids $$!"; \
	done; \
	for p in $$pids; do wait $$p; done; \
	$(TOP)/harness/merge-shards.sh $(RESULTS) $(foreach i,$(shell seq 1 $(JOBS)),$(RESULTS)-shard-$(i)-of-$(JOBS))
endif

# make test's work once image and apps are there: all of it, or SHARD's.
# The host tests run beside the boots: they mostly wait (fake guests'
# timeouts, fake builds), 3-16 s of CPU in 21-33 s (docs/measurements.md);
# the report waits for them (.host-done).
test-shard:
	@rm -rf $(RESULTS); mkdir -p $(RESULTS)
	@$(if $(SHARD),. $(TOP)/lib/sh/manifest.sh; manifest_shard $(RESULTS) $(SHARD); \
		echo "[test] shard $(SHARD): results in $(RESULTS)")
	@{ WBERR_SHARD=$(SHARD) $(TOP)/harness/tests/run-host-tests.sh $(RESULTS); echo $$? > $(RESULTS)/.host-done; } &
	@$(TOP)/harness/run-guest $(GUEST_KERNEL) --image $(IMAGE) \
		--results $(RESULTS) $(GUEST_TIMEOUT_ARGS) $(TEMPLATE_ARGS) $(COSTS_ARGS) $(SHARD_APPEND) \
		--suites all --name suites || true
	@if [ -n "$(call pmem_for,pmem)" ]; then \
		$(TOP)/harness/run-guest $(GUEST_KERNEL) --image $(IMAGE) \
		--results $(RESULTS) $(GUEST_TIMEOUT_ARGS) $(TEMPLATE_ARGS) $(COSTS_ARGS) $(SHARD_APPEND) \
		--suites pmem $(call hw_for,pmem) --name suites-pmem || true; fi
	@if grep -qs '^# wberr-smp:' $(TOP)/tests/*/[0-9][0-9][0-9]; then \
		$(TOP)/harness/run-guest $(GUEST_KERNEL) --image $(IMAGE) \
		--results $(RESULTS) $(GUEST_TIMEOUT_ARGS) $(TEMPLATE_ARGS) $(SHARD_APPEND) $(call hw_for,smp) \
		--suites smp --smp 2 --name suites-smp2 || true; fi
	@if grep -qsE '^# wberr-requires:(.* )?apps( |$$)' $(TOP)/tests/*/[0-9][0-9][0-9]; then \
		$(TOP)/harness/run-guest $(GUEST_KERNEL) --image $(IMAGE) \
		--results $(RESULTS) $(GUEST_TIMEOUT_ARGS) $(TEMPLATE_ARGS) $(SHARD_APPEND) $(call hw_for,apps) \
		--suites apps --apps $(APPS_IMG) --name suites-apps || true; fi
	@if [ "$(KCONFIG)" = debug ]; then \
		$(TOP)/harness/run-guest $(GUEST_KERNEL) --image $(IMAGE) \
		--results $(RESULTS) $(GUEST_TIMEOUT_ARGS) $(TEMPLATE_ARGS) $(SHARD_APPEND) \
		--suites debug-controls --name debug-controls --expect-reports || true; fi
	@while [ ! -f $(RESULTS)/.host-done ]; do sleep 0.5; done; rm -f $(RESULTS)/.host-done
	@$(TOP)/harness/report.sh $(RESULTS)

# make run SCENARIOS='FILE|DIR ...' FILTER='GLOB ...': your own scenario
# files instead of the library in the image (no image rebuild), and/or only
# the instances whose id (fs/name[status], see wberr-run --list) matches a
# glob; commas or spaces separate globs.  Either runs only the scenario
# suite.  harness/run-payload.sh checks both on the host before the boot and
# lays out the payload (/payload/scenarios, /payload/scenario-filter;
# tests/scenarios/001 reads them).
SCENARIOS ?=
FILTER ?=
RUN_OWN := $(strip $(SCENARIOS) $(FILTER))
RUN_PAYLOAD := $(BUILD)/run-payload
RUN_SUITES := $(if $(RUN_OWN),scenarios,default)
# A scenario that runs a program from the apps disk says so in its needs:
# (/opt/apps/...); then, and only then, the boot gets that disk.
RUN_APPS := $(if $(strip $(SCENARIOS)),$(shell cd $(TOP) && grep -rqs /opt/apps $(SCENARIOS) && echo 1))
RUN_PAYLOAD_ARGS := $(if $(strip $(SCENARIOS)),--payload $(RUN_PAYLOAD)/scenarios) \
	$(if $(strip $(FILTER)),--payload $(RUN_PAYLOAD)/scenario-filter) \
	$(if $(strip $(RUN_APPS)),--apps $(APPS_IMG))

.PHONY: run-payload
run-payload: tools
	@$(TOP)/harness/run-payload.sh --wberr-run $(GUEST_BIN)/wberr-run --out $(RUN_PAYLOAD) \
		--library $(TOP)/scenarios $(if $(strip $(FILTER)),--filter '$(strip $(FILTER))') $(strip $(SCENARIOS))

# make run as RUN_JOBS boots at once (by default as many as make test's
# JOBS: one more than the host's cores, the boots leave a core idle while
# they wait; measured 2026-12-07 on 2 cores: 1 boot 104 s, 2 57 s, 3 48 s,
# 4 50 s): each runs its shard of the tests and of the scenario
# instances (wberr-run --shard: runs of about equal cost) into a results
# directory of its own, and harness/merge-run.sh makes them one run in
# $(RESULTS): wberr-run --merge writes the summary and the tables of the
# whole selection from their results.json, for the selection the host
# names the same way (RUN_SELECTION: the library without programs/, as
# tests/scenarios/001 takes it, or SCENARIOS; FILTER).  One boot uses one
# of the host's cores (docs/measurements.md, "make run on several boots").
RUN_JOBS ?= $(DEFAULT_JOBS)
ifneq ($(shell echo '$(RUN_JOBS)' | grep -xE '[1-9]'),$(RUN_JOBS))
$(error RUN_JOBS=$(RUN_JOBS): say a number of boots from 1 to 9)
endif
RUN_SELECTION := $(if $(FILTER),--filter '$(strip $(FILTER))') \
	$(or $(strip $(SCENARIOS)),$(filter-out %/programs/,$(sort $(wildcard $(TOP)/scenarios/*/))))
RUN_GUEST = $(TOP)/harness/run-guest $(GUEST_KERNEL) --image $(IMAGE) \
	--timeout $${WBERR_RUN_TIMEOUT:-1800} $(TEMPLATE_ARGS) $(COSTS_ARGS) --suites $(RUN_SUITES) \
	$(strip $(RUN_PAYLOAD_ARGS)) $(call hw_for,$(RUN_SUITES)) --name run
RUN_SHARD_DIR = $(RESULTS)-run-shard-$(1)-of-$(RUN_JOBS)

run: $(if $(RUN_OWN),run-payload) $(if $(strip $(RUN_APPS)),apps) image
	@rm -rf $(RESULTS); mkdir -p $(RESULTS)
ifeq ($(RUN_JOBS),1)
	@$(RUN_GUEST) --results $(RESULTS) || true
	@$(SAVE_COSTS)
else
	@. $(TOP)/lib/sh/manifest.sh; pids=; \
	for i in $$(seq 1 $(RUN_JOBS)); do \
		d=$(call RUN_SHARD_DIR,$$i); rm -rf $$d; mkdir -p $$d; manifest_shard $$d $$i/$(RUN_JOBS); \
		{ $(RUN_GUEST) --results $$d --append wberr_shard=$$i/$(RUN_JOBS) || true; } 2>&1 | \
			sed -u "s|^|[$$i/$(RUN_JOBS)] |" & pids="$$pids $$!"; \
	done; \
	for p in $$pids; do wait $$p; done
	@$(TOP)/harness/merge-run.sh --wberr-run $(GUEST_BIN)/wberr-run $(RESULTS) \
		$(foreach i,$(shell seq 1 $(RUN_JOBS)),$(call RUN_SHARD_DIR,$(i))) -- $(RUN_SELECTION)
	@$(SAVE_COSTS)
endif
	@$(TOP)/harness/report.sh --summary $(RESULTS)

# make report-card: the fsync report card.  `make run` over the program
# scenarios (CARD_SCENARIOS, default scenarios/programs: every application
# configuration on ext4 and xfs under each status class) into their own
# results directory, then harness/report_card.py writes docs/report-card.md
# and docs/report-card.csv from its results.json and each instance's
# evidence (programs/<id>/).  FILTER= selects instances as for make run.
CARD_SCENARIOS ?= scenarios/programs
CARD_RESULTS := $(BUILD)/results-card
.PHONY: report-card
# One boot (RUN_JOBS=1): the card names each row's evidence directory,
# programs/<id>/, at the top of its results.
report-card:
	@WBERR_RUN_TIMEOUT=$${WBERR_RUN_TIMEOUT:-5400} \
		$(MAKE) --no-print-directory run RUN_JOBS=1 SCENARIOS='$(CARD_SCENARIOS)' RESULTS=$(CARD_RESULTS)
	@python3 $(TOP)/harness/report_card.py --results $(CARD_RESULTS) --names $(BUILD)/lib/wberr-names \
		--md $(TOP)/docs/report-card.md --csv $(TOP)/docs/report-card.csv \
		--command "make report-card$(if $(strip $(FILTER)), FILTER='$(strip $(FILTER))')"

# make compare KERNELS='patched debian-6.12 debian-6.1': `make run` on each
# kernel (SCENARIOS= and FILTER= pass through; each keeps its own results
# directory), then one side-by-side table of what each call returned:
# build/compare/compare.md and compare.json (harness/compare.py), and each
# kernel's results page again with the comparison in it.  A kernel's
# failed instances are results, not a reason to stop; a run that left no
# results.json is.
KERNELS ?= patched debian-6.12 debian-6.1
compare:
	@for k in $(KERNELS); do \
		echo "[compare] make run KERNEL=$$k"; \
		$(MAKE) --no-print-directory run KERNEL=$$k; \
		d=$(BUILD)/results$$([ $$k = patched ] || echo -$$k | tr : -); \
		[ -n "$$(. $(TOP)/lib/sh/manifest.sh; manifest_paths $$d results-json)" ] || { \
			echo "[compare] error: make run KERNEL=$$k left no results.json; its console log is under $$d" >&2; exit 1; }; \
	done
	@python3 $(TOP)/harness/compare.py --out $(BUILD)/compare $(foreach k,$(KERNELS),$(k)=$(call results_of,$(k)))
	@for d in $(foreach k,$(KERNELS),$(call results_of,$(k))); do \
		python3 $(TOP)/harness/page.py --compare $(BUILD)/compare/compare.json $$d || exit 1; done

# Hours of stress for people who want them: DURATION in seconds.
DURATION ?= 3600
soak: image
	@mkdir -p $(BUILD)/results-soak
	@$(TOP)/harness/run-guest $(GUEST_KERNEL) --image $(IMAGE) \
		--results $(BUILD)/results-soak --suites stress --smp 2 --name soak \
		--timeout $$(( $(DURATION) * 3 + 900 )) --append "wberr_stress_duration=$(DURATION)"
	@$(TOP)/harness/report.sh $(BUILD)/results-soak

shell: image
	@$(TOP)/harness/run-guest $(GUEST_KERNEL) --image $(IMAGE) --interactive

bench: image
	@[ "$(KERNEL)" = patched ] || { echo "make bench: only KERNEL=patched for now (harness/bench.sh takes a kernel tree)" >&2; exit 2; }
	@$(TOP)/harness/bench.sh --kernel-tree $(KTREE) --image $(IMAGE) $(call hw_for,default)

clean:
	rm -rf $(BUILD)

# Also drops the kernel cache (a cold rebuild follows).
distclean: clean
	rm -rf $(WBERR_CACHE)
