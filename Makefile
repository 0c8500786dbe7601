# Entry points for building, testing and trying Eddy on Debian 12.
#
#   make deps    install missing Debian packages (deploy/install-deps.sh; uses sudo when not root)
#   make build   configure build/ (Ninja, RelWithDebInfo) once, then build; binaries land in build/bin
#   make test    build, then run every test with CTest (also installs docker-compose, which the
#                deploy tests use to validate deploy/docker-compose.yml)
#   make demo    build, then run examples/word_count.sql on an embedded cluster
#   make clean   remove build/
#
# Variables: BUILD_DIR (build), BUILD_TYPE (RelWithDebInfo), JOBS (nproc), CTEST_JOBS (2).

BUILD_DIR  ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS       ?= $(shell nproc)
CTEST_JOBS ?= 2
INSTALL_DEPS := bash deploy/install-deps.sh

# Let ccache reuse objects across checkouts in different directories (paths are made relative).
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

.PHONY: deps build test demo clean

# `make test` asks for docker-compose in the same install run, so a fresh machine runs apt-get once.
test: WITH_COMPOSE := 1

deps:
	$(INSTALL_DEPS) $(if $(filter 1,$(WITH_COMPOSE)),--with-test-tools)

build: deps
	@if [ ! -f $(BUILD_DIR)/build.ninja ]; then \
	  echo "cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)"; \
	  cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE); \
	fi
	ninja -C $(BUILD_DIR) -j$(JOBS)

test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure --no-tests=error -j$(CTEST_JOBS)

demo: build
	$(BUILD_DIR)/bin/eddy -f examples/word_count.sql

clean:
	rm -rf $(BUILD_DIR)
