# pg_partmgr: PGXS build.
#
#   make                   build the module
#   make install           install it into the server found by pg_config
#   make installcheck      pg_regress and isolation suites against a running
#                          server (see test/run_tests.sh for the full suite on
#                          a throwaway cluster, which is what CI runs)

EXTENSION = pg_partmgr
MODULE_big = pg_partmgr
OBJS = \
	src/pg_partmgr.o \
	src/api.o \
	src/api_data.o \
	src/api_constraints.o \
	src/api_config.o \
	src/api_plan.o \
	src/api_health.o \
	src/api_import.o \
	src/api_dump.o \
	src/api_cleanup.o \
	src/api_analyze.o \
	src/api_sub.o \
	src/api_unique.o \
	src/api_reshape.o \
	src/reshape.o \
	src/reshape_state.o \
	src/capture.o \
	src/maintenance.o \
	src/runner.o \
	src/children.o \
	src/setup.o \
	src/partition_data.o \
	src/plan.o \
	src/execute.o \
	src/work.o \
	src/detach.o \
	src/config.o \
	src/contents.o \
	src/prefetch.o \
	src/citus.o \
	src/mover.o \
	src/unique.o \
	src/retention.o \
	src/properties.o src/api_properties.o \
	src/constraints.o \
	src/catalog.o \
	src/bounds.o \
	src/ddl.o \
	src/log.o \
	src/worker.o \
	src/rights.o \
	src/locks.o \
	src/own_tables.o \
	src/spi_util.o

DATA = $(wildcard sql/$(EXTENSION)--*.sql)
DOCS = $(wildcard doc/*.md doc/*.yaml)
ifeq ($(DOCS),)
undefine DOCS
endif

# pg_regress: sql/<name>.sql with expected/<name>.out
REGRESS = setup create_parent_id create_parent_time maintenance show_functions bad_input retention partition_data partition_data_async reshape
REGRESS_OPTS = --temp-config=$(srcdir)/test/conf/regress.conf --encoding=UTF8 --no-locale

# isolationtester: test/specs/<name>.spec with test/expected/<name>.out
ISOLATION = premake_long_reader premake_concurrent_runs retention_long_reader partition_data_reader constraints_validate reapply_long_reader sub_parent_long_reader analyze_locked_child global_unique change_interval_concurrent reshape_concurrent
ISOLATION_OPTS = --inputdir=test --temp-config=$(srcdir)/test/conf/regress.conf

PG_CPPFLAGS = -Wmissing-prototypes
ifdef WERROR
PG_CPPFLAGS += -Werror
endif

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# make print-REGRESS: the value of a variable (used by test/run_tests.sh)
print-%:
	@echo $($*)

# PGXS tracks no header dependencies: rebuild every object when a header changes
$(OBJS): $(wildcard src/*.h)

# the build fails when an include crosses README.md's layers upward (.ci/check-layers)
all: check-layers
.PHONY: check-layers
check-layers:
	@perl $(srcdir)/.ci/check-layers $(srcdir) >/dev/null
