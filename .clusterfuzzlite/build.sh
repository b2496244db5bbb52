#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz entry: the engine sets CC, CXX, CFLAGS, CXXFLAGS, LIB_FUZZING_ENGINE,
# OUT and SRC; kverify's own script does the rest (docs/fuzzing.md).
"$SRC/kverify/fuzz/build.sh"
