#if !FUZZING
    import Glibc

    /// Without -DFUZZING the target replays files (a saved crash, say): `KARAOKE_FUZZ_TARGET=srt karaoke-fuzz FILE...`.
    /// `make fuzz` builds the libFuzzer target instead, whose `main` is libFuzzer's.
    @main
    struct Replayer {
        static func main() {
            for path in CommandLine.arguments.dropFirst() {
                guard let file = fopen(path, "rb") else {
                    print("karaoke-fuzz: cannot open '\(path)'")
                    exit(1)
                }
                var bytes: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = fread(&chunk, 1, chunk.count, file)
                    if count == 0 { break }
                    bytes.append(contentsOf: chunk[0..<count])
                }
                fclose(file)
                exercise(bytes)
                print("\(path): ok")
            }
        }
    }
#endif
