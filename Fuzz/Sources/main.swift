// routereg-fuzz TARGET [libFuzzer flags] [CORPUS_DIR...]   (built with -sanitize=fuzzer -DFUZZING: fuzzes)
// routereg-fuzz TARGET FILE_OR_DIR...                      (a normal build: replays the files, for regressions)
// routereg-fuzz --list                                     (the target names)
import Foundation

#if FUZZING
    exit(LibFuzzerEntry.run())
#else
    exit(CorpusReplay.run(Array(CommandLine.arguments.dropFirst())))
#endif
