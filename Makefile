# Makefile - build, grade and test the CUDA lab workbook (`make help` lists the targets)

CUDA_PATH ?= /usr/local/cuda
NVCC      ?= $(CUDA_PATH)/bin/nvcc
CC        ?= cc
CUDA_ARCH ?= $(shell scripts/cuda-arch.sh)
NVCCFLAGS ?= -O3
CFLAGS    ?= -O2 -Wall -Wextra -Wno-format-truncation
LAB       ?=
SET       ?= labs

ifeq ($(origin CC),default)
CC := gcc
endif

# Check, json-c and libseccomp through pkg-config; where pkg-config does not know them
# but the compiler finds them, the plain library names.
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -pthread)
JSON_CFLAGS  := $(shell pkg-config --cflags json-c 2>/dev/null)
JSON_LIBS    := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
SECCOMP_LIBS := $(shell pkg-config --libs libseccomp 2>/dev/null || echo -lseccomp)

GENCODE  := $(shell scripts/cuda-arch.sh --gencode $(CUDA_ARCH))
CUDA_INC := -I$(CUDA_PATH)/include
CUDA_LIB := -L$(CUDA_PATH)/lib64 -lcudart -Wl,-rpath,$(CUDA_PATH)/lib64 -lstdc++

ifeq ($(DEBUG),1)
override NVCCFLAGS := -g -G -O0 -DWB_DEBUG
override CFLAGS    := -g -O0 -Wall -Wextra -Wno-format-truncation -DWB_DEBUG
endif
# What every build needs, even when NVCCFLAGS or CFLAGS is given on the command line.
override NVCCFLAGS += -lineinfo -Xcompiler -fPIC -cudart shared $(GENCODE)
override CFLAGS    += -fPIC

ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = @printf '  %-6s %s\n' $(1) $(2);
endif

# A lab whose folder holds a DRAFT file is still being written or measured:
# left out of everything unless DRAFTS=1.
DRAFT_LABS := $(patsubst %/DRAFT,%,$(wildcard labs/[0-9][0-9]-*/DRAFT))
LABS ?= $(sort $(notdir $(filter-out $(if $(DRAFTS),,$(DRAFT_LABS)),$(wildcard labs/[0-9][0-9]-*))))
# LAB=00, LAB=device-query and LAB=00-device-query all name lab 00.
ifneq ($(LAB),)
SELECTED := $(filter $(LAB) $(LAB)-% %-$(LAB),$(LABS))
ifeq ($(SELECTED),)
$(error LAB=$(LAB) names no lab; labs are: $(LABS))
endif
else
SELECTED := $(LABS)
endif
# A handout has no solutions/: then only the student's set is built.
SETS := labs $(if $(wildcard solutions/[0-9]*),solutions)
topic = $(basename $(notdir $(wildcard labs/$(1)/*.cu)))

COMMON_C  := $(wildcard common/*.c)
COMMON_CU := $(wildcard common/*.cu)
COMMON_O  := $(COMMON_C:%.c=build/%.o) $(COMMON_CU:%.cu=build/%.o)
LIBWB     := build/libwb.a
# The grader kit (grader/kit/): every grader links it; build_set.c is
# compiled once per source set, so a grader knows which set it was built for.
KIT_C     := $(filter-out grader/kit/build_set.c,$(wildcard grader/kit/*.c))
KIT_O     := $(KIT_C:%.c=build/%.o) build/grader/kit/version.o
LIBKIT    := build/libwbkit.a
INCLUDES  := -Icommon -Igrader/kit $(CUDA_INC)
# Simulated GPUs (grader/sim/): the runtime's device queries answered for other GPUs. Not in
# the kit's archive: its functions are runtime names every grader calls, so an archive would
# link them into every grader. A lab opts in with grader/<lab>/exports.list, which exports
# them to the student's library; only those graders link SIM_O. The occupancy API answered
# for them too (SIM_OCC_O) only where the lab's exports.list names it: an executable exports
# any name libcudart also defines, so every grader linking it would answer for the student.
SIM_O     := build/grader/sim/sim_devices.o build/grader/sim/sim_occupancy.o
SIM_OCC_O := build/grader/sim/sim_occupancy_api.o
# The runtime's launches and waits for the GPU, counted while student code runs (SIM_WAIT_O),
# likewise only where the lab's exports.list names cudaDeviceSynchronize.
SIM_WAIT_O := build/grader/sim/sim_waits.o
GRADER_VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
# AddressSanitizer over the host code of a student's library (the graders' WB_ASAN_OF tests,
# sanitizer.host): the library built again with -fsanitize=address, beside the first as
# <name>.asan.so, host code at -O1 with debug lines for ASan's reports (the device code as in
# the library graded); the graders preload LIBASAN, the runtime of the compiler nvcc runs for
# host code (g++ unless NVCCFLAGS say -ccbin), into the runs that load it. Where it is not
# found, nothing is built for ASan and the graders say SKIP with the fix.
ifeq ($(origin LIBASAN),undefined)
LIBASAN := $(shell g++ -print-file-name=libasan.so 2>/dev/null)
endif
ASAN_NVCCFLAGS = $(filter-out -O -O0 -O1 -O2 -O3 -Os,$(NVCCFLAGS)) -O1 -g -Xcompiler -fsanitize=address -Xcompiler -fno-omit-frame-pointer
HAVE_ASAN := $(if $(filter /%,$(LIBASAN)),$(wildcard $(LIBASAN)))
# The labs whose grader has such a test.
ASAN_LABS := $(foreach l,$(LABS),$(if $(shell grep -ls WB_ASAN_OF grader/$(l)/*.c 2>/dev/null),$(l)))
asan_so = $(if $(HAVE_ASAN),$(foreach l,$(filter $(ASAN_LABS),$(2)),$(foreach s,$(1),build/$(s)/$(l)/libstudent.asan.so)))

# Slides and plots (optional tools; a handout has the concept decks, not the solution decks).
-include slides/slides.mk

.PHONY: all grade grade-class report bench bench-restricted check test-instructor test-handout test-report env clean help handout test-unit test-broken mutate test-regions list-labs deps setup sweeps test-limits
.DELETE_ON_ERROR:

all: $(foreach s,$(SETS),$(foreach l,$(SELECTED),build/$(s)/$(l)/grade build/$(s)/$(l)/libstudent.so)) $(call asan_so,$(SETS),$(SELECTED)) build/tools/wb-hash build/tools/wb-summary

help:
	@echo "make grade [LAB=NN|topic] [SET=labs|solutions] [SEED=n] [DEVICE=n]  grade labs on this GPU"
	@echo "make check        the workbook's own tests (no GPU needed; more with one)"
	@echo "make all          build every lab, solution and grader"
	@echo "make bench [LAB=] [RUNS=10] [LOAD=1] [APPEND=1|REPLACE=1]  grade both sets RUNS times: margins, flips, times (build/bench/)"
	@echo "make bench-restricted [SMS_LIST=\"16 32 64\"] [RUNS=3]  the bench with every test confined to n SMs (green contexts)"
	@echo "make mutate [LAB=] [SEED=1]  mutation testing of the graders: one-change mutants of the reference (build/mutate/report.md)"
	@echo "make env          GPU, driver, toolkit, Check versions and optional tools"
	@echo "make setup        install the Debian/Ubuntu prerequisites (Check, json-c, pkg-config)"
	@echo "make -s list-labs the labs that are live (DRAFTS=1 adds drafts)"
	@echo "make sweeps       the design sweeps behind lab limits (build/tools/04-sweep, ...)"
	@echo "make handout      student tarball without solutions/ (build/handout.tar.gz)"
	@echo "make grade SUBMISSION=path        grade one submission (folder or tarball) with this grader"
	@echo "make grade-class SUBMISSIONS=dir [SLURM=1]   grade a class, write build/class/gradebook.csv"
	@echo "make slides       concept decks to build/slides/, solution decks to build/slides/solutions/ (HTML; PDF with Chromium); make plots: build/plots/ from your runs (gnuplot)"
	@echo "make report [SET=labs|solutions] [LAB=]  one page of the last grading run: build/report/<set>/index.html (verdicts, totals, plots)"
	@echo "make clean        remove build/"
	@echo "variables: CUDA_PATH NVCC CUDA_ARCH NVCCFLAGS CFLAGS V=1 DEBUG=1 LAB SET SEED DEVICE SMS"
	@echo "labs: $(LABS)"

# ---- common helpers and the grader kit
build/common/%.o: common/%.c $(wildcard common/*.h) | deps
	$(call say,CC,$<)mkdir -p $(@D) && $(CC) $(CFLAGS) $(INCLUDES) $(JSON_CFLAGS) -c $< -o $@
build/common/%.o: common/%.cu $(wildcard common/*.h)
	$(call say,NVCC,$<)mkdir -p $(@D) && $(NVCC) $(NVCCFLAGS) $(INCLUDES) -c $< -o $@
$(LIBWB): $(COMMON_O)
	$(call say,AR,$@)ar rcs $@ $^
build/grader/kit/%.o: grader/kit/%.c $(wildcard grader/kit/*.h) $(wildcard common/*.h) | deps
	$(call say,CC,$<)mkdir -p $(@D) && $(CC) $(CFLAGS) $(INCLUDES) $(CHECK_CFLAGS) -c $< -o $@
# The grader's version (git describe) goes into results.json, and the workbook's top folder
# (where the grader finds ledger/) into its header; the file changes only when one of them
# does, so nothing rebuilds for nothing.
WB_ROOT_C := $(subst ",\",$(subst \,\\,$(CURDIR)))
build/grader/kit/version.c: FORCE
	@mkdir -p $(@D) && printf '/* version.c - generated by make */\nconst char wb_grader_version[] = "%s";\nconst char wb_workbook_root[] = "%s";\nconst char wb_libasan[] = "%s";\n' \
	    '$(GRADER_VERSION)' '$(WB_ROOT_C)' '$(subst ",\",$(subst \,\\,$(LIBASAN)))' >$@.tmp && { cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@; }
build/grader/kit/version.o: build/grader/kit/version.c
	$(call say,CC,$<)$(CC) $(CFLAGS) -c $< -o $@
build/grader/sim/%.o: grader/sim/%.c $(wildcard grader/sim/*.h)
	$(call say,CC,$<)mkdir -p $(@D) && $(CC) $(CFLAGS) $(CUDA_INC) -c $< -o $@
$(LIBKIT): $(KIT_O)
	$(call say,AR,$@)ar rcs $@ $^
build/%/build_set.o: grader/kit/build_set.c
	$(call say,CC,$@)mkdir -p $(@D) && $(CC) $(CFLAGS) -DWB_BUILD_SET='"$*"' -c $< -o $@
.PHONY: FORCE
FORCE:

# Runs a student's build with its reads and writes confined (scripts/student-build.sh).
build/tools/wb-confine: grader/tools/wb_confine.c common/wb_landlock.c common/wb_landlock.h
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(CFLAGS) -Icommon grader/tools/wb_confine.c common/wb_landlock.c -o $@
build/tools/wb-hash: grader/tools/wb_hash.c $(LIBWB)
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(CFLAGS) $(INCLUDES) $< $(LIBWB) -lm -o $@
build/tools/wb-load: grader/tools/wb_load.cu $(LIBWB) common/wb_check.h
	$(call say,NVCC,$<)mkdir -p $(@D) && $(NVCC) $(NVCCFLAGS) $(INCLUDES) $< $(LIBWB) -o $@
build/tools/wb-bench-stats: grader/tools/wb_bench_stats.c $(LIBWB)
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(CFLAGS) $(INCLUDES) $< $(LIBWB) -lm -o $@
build/tools/wb-summary: grader/tools/wb_summary.c $(LIBWB) | deps
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(CFLAGS) $(INCLUDES) $(JSON_CFLAGS) $< $(LIBWB) $(JSON_LIBS) -lm -o $@

# Design sweeps behind a lab's limits (not part of grading): make sweeps.
SWEEPS := build/tools/04-sweep build/tools/04-experiments
build/tools/04-sweep: grader/04-barriers/sweep/sweep.cu $(LIBWB) common/wb_check.h
	$(call say,NVCC,$<)mkdir -p $(@D) && $(NVCC) $(NVCCFLAGS) $(INCLUDES) $< $(LIBWB) -o $@
build/tools/04-experiments: grader/04-barriers/sweep/experiments.cu
	$(call say,NVCC,$<)mkdir -p $(@D) && $(NVCC) $(NVCCFLAGS) $(INCLUDES) $< -o $@
sweeps: $(SWEEPS)

# Every build of a student's file (a lab's library, a broken variant, a mutant) runs under
# limits of time, memory and file size, its reads and writes confined (build/tools/wb-confine):
# the file is untrusted, and no test's sandbox exists yet.
STUDENT_BUILD := scripts/student-build.sh

# ---- per lab: the student's code as a shared library, the grader beside it.
# The grader loads the library only inside each forked test process, so a
# lab that does not compile still has a grader that reports its tests.
# The lab's name and source file reach its suite as -D flags (WB_LAB_MAIN).
lab_id = -DWB_LAB_NAME='"$(1)"' -DWB_LAB_SOURCE='"$(call topic,$(1)).cu"'
define lab_rules
build/grader/$(1)/%.o: grader/$(1)/%.c grader/kit/wb_grader.h $(wildcard common/*.h) labs/$(1)/$(call topic,$(1)).h $(wildcard grader/$(1)/*.h) $(if $(call uses_sim,$(1)),$(wildcard grader/sim/*.h)) | deps
	$$(call say,CC,$$<)mkdir -p $$(@D) && $$(CC) $$(CFLAGS) $$(INCLUDES) $(if $(call uses_sim,$(1)),-Igrader/sim) -Ilabs/$(1) $$(CHECK_CFLAGS) $(call lab_id,$(1)) -c $$< -o $$@
build/grader/$(1)/%.o: grader/$(1)/%.cu $(wildcard common/*.h) labs/$(1)/$(call topic,$(1)).h $(wildcard grader/$(1)/*.h)
	$$(call say,NVCC,$$<)mkdir -p $$(@D) && $$(NVCC) $$(NVCCFLAGS) $$(INCLUDES) -Ilabs/$(1) $(call lab_id,$(1)) -c $$< -o $$@
GRADER_O_$(1) := $$(patsubst grader/%.c,build/grader/%.o,$$(wildcard grader/$(1)/*.c)) \
                 $$(patsubst grader/%.cu,build/grader/%.o,$$(wildcard grader/$(1)/*.cu)) \
                 $(if $(call uses_sim,$(1)),$(SIM_O)) $(if $(call uses_sim_occ,$(1)),$(SIM_OCC_O)) \
                 $(if $(call uses_sim_wait,$(1)),$(SIM_WAIT_O))
endef
# A grader may export runtime functions it answers itself (grader/<lab>/exports.list: the
# simulated GPUs of grader/sim/, which such a grader links), so that the student's library
# calls them there.
uses_sim = $(wildcard grader/$(1)/exports.list)
uses_sim_occ = $(if $(call uses_sim,$(1)),$(shell grep -l cudaOccupancy grader/$(1)/exports.list))
uses_sim_wait = $(if $(call uses_sim,$(1)),$(shell grep -l cudaDeviceSynchronize grader/$(1)/exports.list))
grader_exports = $(if $(call uses_sim,$(1)),-Wl$(comma)--dynamic-list=grader/$(1)/exports.list)
comma := ,
define set_rules
build/$(2)/$(1)/grade: $$(GRADER_O_$(1)) build/$(2)/build_set.o $(LIBKIT) $(LIBWB) $(wildcard grader/$(1)/exports.list)
	$$(call say,LD,$$@)mkdir -p $$(@D) && $$(CC) $$(CFLAGS) $$(filter %.o %.a,$$^) $$(CHECK_LIBS) $$(JSON_LIBS) $$(SECCOMP_LIBS) $$(CUDA_LIB) $(call grader_exports,$(1)) -ldl -lm -pthread -o $$@
build/$(2)/$(1)/libstudent.so: $(2)/$(1)/$(call topic,$(1)).cu labs/$(1)/$(call topic,$(1)).h | build/tools/wb-confine
	$$(call say,NVCC,$$<)mkdir -p $$(@D) && $(STUDENT_BUILD) $$(NVCC) $$(NVCCFLAGS) -Ilabs/$(1) $(CUDA_INC) -shared $$< -o $$@
build/$(2)/$(1)/libstudent.asan.so: $(2)/$(1)/$(call topic,$(1)).cu labs/$(1)/$(call topic,$(1)).h | build/tools/wb-confine
	$$(call say,ASAN,$$<)mkdir -p $$(@D) && $$(asan_check) $(STUDENT_BUILD) $$(NVCC) $$(ASAN_NVCCFLAGS) -Ilabs/$(1) $(CUDA_INC) -shared $$< -o $$@
endef
# Before a build for ASan: stop at once, saying why, where there is no libasan.
asan_check = { [ -n "$(HAVE_ASAN)" ] || { echo "error: libasan not found (g++ -print-file-name=libasan.so: $(LIBASAN)): install libasan8 or your gcc's libgcc-N-dev; the graders' AddressSanitizer tests say SKIP without it"; exit 1; }; } &&
$(foreach l,$(LABS),$(eval $(call lab_rules,$(l))))
$(foreach l,$(LABS),$(foreach s,$(SETS),$(eval $(call set_rules,$(l),$(s)))))

# ---- grading
# A path as one shell word, exactly as given on make's command line: its raw text ($(value),
# never expanded by make) in single quotes. A submission's path holds a student's name, and
# "$(SUBMISSION)" in a recipe ran the backquotes or $(...) of a name like x`cmd`.tar.gz.
shell_word = '$(subst ','\'',$(value $(1)))'
grade: $(LIBWB) build/tools/wb-summary
ifneq ($(SUBMISSION),)
	@LAB=$(LAB) scripts/grade-submission.sh $(call shell_word,SUBMISSION)
else
	@case " $(SETS) " in *" $(SET) "*) ;; *) echo "SET=$(SET): this workbook has no $(SET)/ folder (a handout has no solutions/); grade your own work with SET=labs"; exit 2;; esac
	@SET=$(SET) MAKE="$(MAKE)" scripts/grade.sh $(SELECTED)
endif

# One HTML page of the set's last grading run, build/report/<set>/index.html: the run's GPU
# and seeds, every verdict and total, and the plots of make plots drawn from the run's own
# data only (slides/plot.sh --own). Labs not graded are named; with none graded it fails.
report:
	@command -v python3 >/dev/null 2>&1 || { echo "report: python3 not found (sudo apt-get install python3)"; exit 1; }
	@GNUPLOT="$(GNUPLOT)" python3 scripts/report.py --set $(SET) $(SELECTED)

# A class: SUBMISSIONS=folder of student folders or tarballs; SLURM=1 for a job array.
grade-class: build/tools/wb-summary
	@test -n $(call shell_word,SUBMISSIONS) || { echo "usage: make grade-class SUBMISSIONS=folder [SLURM=1]"; exit 2; }
	@scripts/grade-class.sh $(call shell_word,SUBMISSIONS)

# ---- measuring the grader itself (RUNS=n, LOAD=1)
bench: all build/tools/wb-load build/tools/wb-bench-stats
	@RUNS=$(RUNS) LOAD=$(LOAD) APPEND=$(APPEND) REPLACE=$(REPLACE) SMS=$(SMS) scripts/bench.sh $(SELECTED)

# The same with every test confined to fewer SMs (green contexts): RUNS (default 3) runs of
# each set per count in SMS_LIST; one report per count, and build/bench/restricted.md.
SMS_LIST ?= 16 32 64
bench-restricted: all build/tools/wb-load build/tools/wb-bench-stats
	@RUNS="$(RUNS)" SMS_LIST="$(SMS_LIST)" APPEND=$(APPEND) REPLACE=$(REPLACE) scripts/bench-restricted.sh $(SELECTED)

# ---- mutation testing of the graders (scripts/mutate.py): each mutant is a whole copy of a
# lab's reference with one change in a student region, built like a student's library.
build/mutate/%.so: build/mutate/%.cu $(wildcard labs/*/*.h) | build/tools/wb-confine
	$(call say,NVCC,$<)$(STUDENT_BUILD) $(NVCC) $(NVCCFLAGS) -Ilabs/$(patsubst %/,%,$(dir $*)) $(CUDA_INC) -shared $< -o $@
build/mutate/%.asan.so: build/mutate/%.cu $(wildcard labs/*/*.h) | build/tools/wb-confine
	$(call say,ASAN,$<)$(asan_check) $(STUDENT_BUILD) $(NVCC) $(ASAN_NVCCFLAGS) -Ilabs/$(patsubst %/,%,$(dir $*)) $(CUDA_INC) -shared $< -o $@

mutate: all
	@case " $(SETS) " in *" solutions "*) ;; *) echo "make mutate: no solutions/ here (a handout): nothing to mutate"; exit 2;; esac
	@SEED=$(or $(SEED),1) scripts/mutate.py $(SELECTED)

# ---- the workbook's own tests
build/tests/check_common: tests/check_common.c $(LIBWB) $(SIM_O) $(SIM_WAIT_O) | deps
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(CFLAGS) $(INCLUDES) -Igrader/sim $(CHECK_CFLAGS) $(JSON_CFLAGS) $< $(LIBWB) $(SIM_O) $(SIM_WAIT_O) $(CHECK_LIBS) $(JSON_LIBS) $(SECCOMP_LIBS) $(CUDA_LIB) -ldl -lm -o $@

# Lab 03's edge warps as its grader computes them without a GPU, and the picture's sample.
build/tests/check_dv_edge: tests/check_dv_edge.c build/grader/03-divergence/dv_edge.o $(LIBWB) | deps
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(CFLAGS) $(INCLUDES) -Igrader/03-divergence $(CHECK_CFLAGS) $< build/grader/03-divergence/dv_edge.o $(LIBWB) $(CHECK_LIBS) -lm -o $@

# Broken variants include their lab's solution and their lab's shared drivers (tests/broken/LAB/*.h):
# rebuild them when either changes.
build/tests/broken/%.so: tests/broken/%.cu $(wildcard solutions/*/*.cu tests/broken/*/*.h) | build/tools/wb-confine
	$(call say,NVCC,$<)mkdir -p $(@D) && $(STUDENT_BUILD) $(NVCC) $(NVCCFLAGS) -Ilabs/$(patsubst %/,%,$(dir $*)) $(CUDA_INC) -shared $< -o $@
build/tests/broken/%.asan.so: tests/broken/%.cu $(wildcard solutions/*/*.cu tests/broken/*/*.h) | build/tools/wb-confine
	$(call say,ASAN,$<)mkdir -p $(@D) && $(asan_check) $(STUDENT_BUILD) $(NVCC) $(ASAN_NVCCFLAGS) -Ilabs/$(patsubst %/,%,$(dir $*)) $(CUDA_INC) -shared $< -o $@
# Variants named compile_* must not build (test-broken.sh builds each and expects a failure).
BROKEN_SO := $(patsubst tests/broken/%.cu,build/tests/broken/%.so,$(foreach l,$(LABS),$(foreach f,$(wildcard tests/broken/$(l)/*.cu),$(if $(findstring /compile_,$(f)),,$(f)))))
# ... and each built for ASan too where its lab's grader has an AddressSanitizer test.
BROKEN_ASAN_SO := $(if $(HAVE_ASAN),$(foreach f,$(BROKEN_SO),$(if $(filter $(ASAN_LABS),$(notdir $(patsubst %/,%,$(dir $(f))))),$(f:.so=.asan.so))))

# The kit's self-tests: verdict rules (a lab of framework cases) and the
# table check (every refusal, on tables built to be refused).
build/tests/grader_selftest: tests/grader_selftest.c build/solutions/build_set.o $(LIBKIT) $(LIBWB)
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(CFLAGS) $(INCLUDES) $(CHECK_CFLAGS) -DWB_LAB_NAME='"99-selftest"' -DWB_LAB_SOURCE='"selftest.cu"' $^ $(CHECK_LIBS) $(JSON_LIBS) $(SECCOMP_LIBS) $(CUDA_LIB) -ldl -lm -pthread -o $@
build/tests/check_table: tests/check_table.c build/solutions/build_set.o $(LIBKIT) $(LIBWB)
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(CFLAGS) $(INCLUDES) $(CHECK_CFLAGS) $^ $(CHECK_LIBS) $(JSON_LIBS) $(SECCOMP_LIBS) $(CUDA_LIB) -ldl -lm -pthread -o $@
# The sandbox's seccomp filter alone, as on a kernel without Landlock's scopes.
build/tests/check_sandbox: tests/check_sandbox.c build/solutions/build_set.o $(LIBKIT) $(LIBWB)
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(CFLAGS) $(INCLUDES) $(CHECK_CFLAGS) -DWB_LAB_NAME='"99-sandbox"' $^ $(CHECK_LIBS) $(JSON_LIBS) $(SECCOMP_LIBS) $(CUDA_LIB) -ldl -lm -pthread -o $@

# The kit's AddressSanitizer support: reading ASan's reports, when its runs can be made, where
# the library built for them is found.
build/tests/check_asan: tests/check_asan.c build/solutions/build_set.o $(LIBKIT) $(LIBWB)
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(CFLAGS) $(INCLUDES) $(CHECK_CFLAGS) $(JSON_CFLAGS) $^ $(CHECK_LIBS) $(JSON_LIBS) $(SECCOMP_LIBS) $(CUDA_LIB) -ldl -lm -pthread -o $@
# A student's library of host code alone, plain and built for ASan (where libasan is found),
# for the self-test's AddressSanitizer tests (scripts/test-grader.sh).
build/tests/asan_fixture.so: tests/asan_fixture.c
	$(call say,CC,$<)mkdir -p $(@D) && $(CC) $(CFLAGS) -shared $< -o $@
build/tests/asan_fixture.asan.so: tests/asan_fixture.c
	$(call say,ASAN,$<)mkdir -p $(@D) && $(asan_check) $(CC) $(filter-out -O%,$(CFLAGS)) -O1 -g -fsanitize=address -fno-omit-frame-pointer -shared $< -o $@

test-unit: build/tests/check_common build/tests/grader_selftest build/tests/check_table build/tests/check_sandbox build/tests/check_dv_edge build/tests/check_asan build/tests/asan_fixture.so $(if $(HAVE_ASAN),build/tests/asan_fixture.asan.so) build/tools/wb-summary build/tools/wb-bench-stats
	@echo "== unit tests of common/ and the grader kit"
	@build/tests/check_common
	@build/tests/check_dv_edge
	@build/tests/check_table
	@build/tests/check_sandbox
	@build/tests/check_asan
	@scripts/test-cuda-arch.sh
	@scripts/test-grader.sh
	@scripts/test-reference-answers.sh
	@scripts/test-bench.sh
	@scripts/test-mutate.sh
	@scripts/check-broken-expect.py --self-test

test-instructor: all
	@scripts/test-instructor.sh

# The handout is whole: its links and images resolve inside it, `make plots`
# works there, `make slides` renders its concept decks and no solution deck, and
# none of its files (not even one line of a concept deck) holds the reference's
# student code.
test-handout:
	@scripts/check-handout.sh

# make report on a fixture graded here without a GPU: every row and total, escaping, links
# inside the folder, and a screenshot in headless Chromium (SKIP without it).
REPORT_LABS := 00-device-query 01-block-scheduling 03-divergence
test-report: build/tools/wb-summary $(foreach s,$(SETS),$(foreach l,$(REPORT_LABS),build/$(s)/$(l)/grade))
	@GNUPLOT="$(GNUPLOT)" CHROME_PATH="$(CHROME_PATH)" scripts/test-report.sh

test-regions:
	@scripts/check-regions.sh $(LABS)

# Each lab README's grading table agrees with its grader's table and limits.
test-limits: all
	@scripts/check-limits.sh $(LABS)
	@scripts/test-check-limits.sh

test-broken: all $(BROKEN_SO) $(BROKEN_ASAN_SO)
	@scripts/check-broken-expect.py $(LABS)
	@scripts/test-broken.sh $(LABS)

check: all test-unit
ifneq ($(filter solutions,$(SETS)),)
	@$(MAKE) --no-print-directory test-regions test-limits sweeps
	@SETS="$(SETS)" scripts/check-grades.sh $(LABS)
	@$(MAKE) --no-print-directory test-broken
	@scripts/test-instructor.sh
	@$(MAKE) --no-print-directory test-handout
	@$(MAKE) --no-print-directory test-slides
	@$(MAKE) --no-print-directory test-report
else
	@SETS="$(SETS)" scripts/check-grades.sh $(LABS)
	@$(MAKE) --no-print-directory test-report
	@echo "(a handout: no solutions/, so the stubs are graded but not compared with a reference)"
endif
	@echo "make check: all passed"

# ---- environment, prerequisites and handout
# The labs that are live (DRAFT ones only with DRAFTS=1), for every script:
# `make -s list-labs`.
list-labs:
	@echo $(LABS)

# Check and json-c are found, or the build stops with the command that installs them.
deps:
	@CC="$(CC)" CFLAGS_DEPS="$(CHECK_CFLAGS) $(JSON_CFLAGS)" LIBS_DEPS="$(CHECK_LIBS) $(JSON_LIBS) $(SECCOMP_LIBS)" scripts/deps.sh check

# Installs the Debian/Ubuntu prerequisites (sudo when not root).
setup:
	@scripts/deps.sh install

env:
	@scripts/env.sh "$(NVCC)" "$(CUDA_ARCH)"

handout:
	@scripts/handout.sh

clean:
	rm -rf build
