# pg_partmgr: PGXS build.
#
#   make                   build the module
#   make install           install it into the server found by pg_config
#   make installcheck      pg_regress and isolation suites against a running
#                          server (see test/run_tests.sh for the full suite on
#                          a throwaway cluster, which is what CI runs)

EXTENSION = pg_partmgr
MODULE_big = pg_partmgr
# src/ has one folder per layer, top to bottom (src/README.md); headers are
# named uniquely across them and included by name
LAYERS = api jobs actions state base
OBJS = $(patsubst %.c,%.o,$(sort $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c))))

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

PG_CPPFLAGS = -Wmissing-prototypes $(foreach l,$(LAYERS),-I$(srcdir)/src/$(l))
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
$(OBJS): $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.h))

# the build fails when an include crosses the layers upward (.ci/check-layers)
all: check-layers
.PHONY: check-layers
check-layers:
	@perl $(srcdir)/.ci/check-layers $(srcdir) >/dev/null
