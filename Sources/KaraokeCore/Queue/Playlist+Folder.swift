extension Playlist {
    /// The songs of a folder whose file names are `names`, sorted by name, each song once (DESIGN §14.2).
    ///
    /// Files that share a base name are one song: the audio file when there is one (its lyrics are found
    /// beside it as for `play AUDIO`, or its `.cdg`, DESIGN §19.6), else a MIDI karaoke file (its own lyrics and
    /// music), else a zipped MP3+G song, else a `.cdg` alone, else the lyric file whose extension comes first
    /// in `AudioFiles.lyricExtensions`. Hidden files and files of other kinds are left out.
    public static func songs(inFolder folder: String, names: [String]) -> [QueueEntry] {
        var audio: [String: String] = [:]
        var midi: [String: String] = [:]
        // MP3+G songs without an audio file of their name: a zip, or a `.cdg` alone (played silently).
        var graphics: [String: String] = [:]
        var lyrics: [String: (rank: Int, name: String)] = [:]
        for name in names where !name.hasPrefix(".") && !name.contains("/") {
            guard let ext = AudioFiles.fileExtension(of: name)?.lowercased() else { continue }
            let base = AudioFiles.baseName(of: name)
            if AudioFiles.audioExtensions.contains(ext) {
                // Two audio files of one song: the lower name, so the choice does not depend on the listing.
                if audio[base].map({ name < $0 }) ?? true { audio[base] = name }
            } else if AudioFiles.midiExtensions.contains(ext) {
                if midi[base].map({ name < $0 }) ?? true { midi[base] = name }
            } else if MP3GFiles.isGraphicsSource(name) {
                // A zip before a `.cdg` of the same name: it holds the audio too.
                let rank = MP3GFiles.isArchive(name) ? 0 : 1
                if graphics[base].map({ (rank, name) < (MP3GFiles.isArchive($0) ? 0 : 1, $0) }) ?? true {
                    graphics[base] = name
                }
            } else if let rank = AudioFiles.lyricExtensions.firstIndex(of: ext) {
                if lyrics[base].map({ (rank, name) < ($0.rank, $0.name) }) ?? true { lyrics[base] = (rank, name) }
            }
        }
        let prefix = folder.isEmpty || folder.hasSuffix("/") ? folder : folder + "/"
        return Set(audio.keys).union(midi.keys).union(graphics.keys).union(lyrics.keys).sorted().compactMap { base in
            (audio[base] ?? midi[base] ?? graphics[base] ?? lyrics[base]?.name).map { QueueEntry(path: prefix + $0) }
        }
    }
}
