// libFuzzer's driver entry point (compiler-rt, FuzzerInterface.h), for the -DFUZZING build of
// routereg-fuzz only: the build passes this directory's module map with -Xcc -fmodule-map-file.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
