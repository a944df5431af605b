// karaoke-tags: reads one audio file's tags with TagLib and prints them as one JSON object on stdout
// (DESIGN §10.2). A separate process so that the karaoke binary never links TagLib (its start-up stays
// as it is) and so that a hostile tag which crashes TagLib ends this process, not the player.
//
// Output: {"title":…,"artist":…,"album":…,"duration":seconds,"synced":[{"ms":N,"text":…}],
//          "syncedSource":"SYLT","texts":[{"source":"USLT","text":…}],"notes":[…]}
// Exit status: 0 tags printed; 2 usage; 3 the file cannot be opened; 4 not an audio file TagLib reads;
// 5 TagLib failed (ran out of its memory limit, or threw).

#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <exception>
#include <new>

#include <fileref.h>
#include <tag.h>
#include <tpropertymap.h>
#include <audioproperties.h>
#include <mpegfile.h>
#include <mpegproperties.h>
#include <flacfile.h>
#include <mp4file.h>
#include <mp4tag.h>
#include <wavfile.h>
#include <aifffile.h>
#include <xiphcomment.h>
#include <id3v2tag.h>
#include <id3v2frame.h>
#include <synchronizedlyricsframe.h>
#include <unsynchronizedlyricsframe.h>

namespace {

/// The output never grows past this many bytes; what does not fit is left out with a note.
const size_t maximumOutput = 16 * 1024 * 1024;
/// At most this many synced lines are printed, over all SYLT frames.
const size_t maximumSyncedLines = 100000;

/// Appends `text` to `out` as a JSON string: quotes, backslashes and control characters escaped, and
/// every byte that is not part of valid UTF-8 written as U+FFFD.
void appendJSONString(std::string &out, const std::string &text) {
    out += '"';
    const auto *bytes = reinterpret_cast<const unsigned char *>(text.data());
    size_t count = text.size(), i = 0;
    while (i < count) {
        unsigned char byte = bytes[i];
        if (byte < 0x80) {
            switch (byte) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (byte < 0x20 || byte == 0x7F) {
                    char escaped[8];
                    std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
                    out += escaped;
                } else {
                    out += static_cast<char>(byte);
                }
            }
            i += 1;
            continue;
        }
        // The length of the sequence this lead byte starts, and the smallest and largest second byte
        // that keeps it valid (no overlong forms, no surrogates, nothing above U+10FFFF).
        size_t length = 0;
        unsigned char low = 0x80, high = 0xBF;
        if (byte >= 0xC2 && byte <= 0xDF) length = 2;
        else if (byte == 0xE0) { length = 3; low = 0xA0; }
        else if (byte >= 0xE1 && byte <= 0xEC) length = 3;
        else if (byte == 0xED) { length = 3; high = 0x9F; }
        else if (byte >= 0xEE && byte <= 0xEF) length = 3;
        else if (byte == 0xF0) { length = 4; low = 0x90; }
        else if (byte >= 0xF1 && byte <= 0xF3) length = 4;
        else if (byte == 0xF4) { length = 4; high = 0x8F; }
        bool valid = length > 0 && i + length <= count && bytes[i + 1] >= low && bytes[i + 1] <= high;
        for (size_t k = 2; valid && k < length; k++) valid = bytes[i + k] >= 0x80 && bytes[i + k] <= 0xBF;
        if (valid) {
            out.append(text, i, length);
            i += length;
        } else {
            out += "\xEF\xBF\xBD";
            i += 1;
        }
    }
    out += '"';
}

/// What is printed, gathered while reading.
struct Output {
    std::string title, artist, album;
    bool hasTitle = false, hasArtist = false, hasAlbum = false;
    double duration = -1;
    struct Line { long long ms; std::string text; };
    std::vector<Line> synced;
    std::string syncedSource;
    struct Text { std::string source, text; };
    std::vector<Text> texts;
    std::vector<std::string> notes;
};

std::string utf8(const TagLib::String &text) { return text.to8Bit(true); }

/// Milliseconds per MPEG frame of the file, or 0 when the file does not say (not MPEG, no sample rate).
double millisecondsPerMPEGFrame(TagLib::File *file) {
    auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(file);
    if (!mpeg || !mpeg->audioProperties()) return 0;
    const auto *properties = mpeg->audioProperties();
    int rate = properties->sampleRate();
    if (rate <= 0) return 0;
    int samples = 1152;
    if (properties->layer() == 1) samples = 384;
    else if (properties->layer() == 3 && properties->version() != TagLib::MPEG::Header::Version1) samples = 576;
    return 1000.0 * samples / rate;
}

/// Reads the lyric frames of an ID3v2 tag: every SYLT frame of content type lyrics (the chosen one's
/// lines go to `synced`) and every USLT frame's text.
///
/// Of several SYLT lyric frames the first with the most lines is kept: two frames are usually two
/// languages or a stub, and nothing in the frame says which language the listener wants.
void readID3v2(TagLib::ID3v2::Tag *tag, TagLib::File *file, Output &out) {
    if (!tag) return;
    const auto &frames = tag->frameListMap();
    auto sylt = frames.find("SYLT");
    if (sylt != frames.end()) {
        const TagLib::ID3v2::SynchronizedLyricsFrame *chosen = nullptr;
        for (auto *frame : sylt->second) {
            auto *lyrics = dynamic_cast<TagLib::ID3v2::SynchronizedLyricsFrame *>(frame);
            if (!lyrics) continue;
            if (lyrics->type() != TagLib::ID3v2::SynchronizedLyricsFrame::Lyrics
                && lyrics->type() != TagLib::ID3v2::SynchronizedLyricsFrame::Other) {
                out.notes.push_back("SYLT frame of content type " + std::to_string(lyrics->type())
                                    + " (not lyrics) ignored");
                continue;
            }
            if (!chosen || lyrics->synchedText().size() > chosen->synchedText().size()) chosen = lyrics;
        }
        if (chosen) {
            double scale = 1;
            bool usable = true;
            if (chosen->timestampFormat() == TagLib::ID3v2::SynchronizedLyricsFrame::AbsoluteMpegFrames) {
                scale = millisecondsPerMPEGFrame(file);
                if (scale == 0) {
                    usable = false;
                    out.notes.push_back("SYLT frame timed in MPEG frames in a file that is not MPEG audio; ignored");
                }
            } else if (chosen->timestampFormat() != TagLib::ID3v2::SynchronizedLyricsFrame::AbsoluteMilliseconds) {
                usable = false;
                out.notes.push_back("SYLT frame with an unknown timestamp format; ignored");
            }
            if (usable) {
                out.syncedSource = "SYLT";
                for (const auto &entry : chosen->synchedText()) {
                    if (out.synced.size() >= maximumSyncedLines) {
                        out.notes.push_back("SYLT frame has more than " + std::to_string(maximumSyncedLines)
                                            + " lines; the rest are left out");
                        break;
                    }
                    out.synced.push_back({static_cast<long long>(entry.time * scale + 0.5), utf8(entry.text)});
                }
            }
        }
    }
    auto uslt = frames.find("USLT");
    if (uslt != frames.end()) {
        for (auto *frame : uslt->second) {
            auto *lyrics = dynamic_cast<TagLib::ID3v2::UnsynchronizedLyricsFrame *>(frame);
            if (lyrics) out.texts.push_back({"USLT", utf8(lyrics->text())});
        }
    }
}

/// Reads the lyric fields of a property map (Vorbis comments, MP4 atoms): `prefix` names the kind.
void readProperties(const TagLib::PropertyMap &properties, const std::string &prefix, Output &out) {
    for (const char *key : {"SYNCEDLYRICS", "LYRICS", "UNSYNCEDLYRICS"}) {
        auto found = properties.find(key);
        if (found == properties.end()) continue;
        for (const auto &value : found->second) out.texts.push_back({prefix + " " + key, utf8(value)});
    }
}

/// Reads every tag of `file` that karaoke uses.
void read(TagLib::FileRef &ref, Output &out) {
    TagLib::File *file = ref.file();
    if (auto *tag = ref.tag()) {
        // TagLib turns text it cannot decode into an empty string; that is "no title", not a title "".
        out.title = utf8(tag->title());
        out.hasTitle = !out.title.empty();
        out.artist = utf8(tag->artist());
        out.hasArtist = !out.artist.empty();
        out.album = utf8(tag->album());
        out.hasAlbum = !out.album.empty();
    }
    if (auto *properties = ref.audioProperties()) {
        int milliseconds = properties->lengthInMilliseconds();
        if (milliseconds > 0) out.duration = milliseconds / 1000.0;
    }
    if (auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) {
        if (mpeg->hasID3v2Tag()) readID3v2(mpeg->ID3v2Tag(), file, out);
    } else if (auto *flac = dynamic_cast<TagLib::FLAC::File *>(file)) {
        if (flac->hasXiphComment()) readProperties(flac->xiphComment()->properties(), "Vorbis", out);
        if (flac->hasID3v2Tag()) readID3v2(flac->ID3v2Tag(), file, out);
    } else if (auto *mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
        if (mp4->hasMP4Tag() && mp4->tag()->contains("\251lyr")) {
            for (const auto &value : mp4->tag()->item("\251lyr").toStringList())
                out.texts.push_back({"MP4 \xC2\xA9lyr", utf8(value)});
        }
    } else if (auto *wav = dynamic_cast<TagLib::RIFF::WAV::File *>(file)) {
        if (wav->hasID3v2Tag()) readID3v2(wav->ID3v2Tag(), file, out);
    } else if (auto *aiff = dynamic_cast<TagLib::RIFF::AIFF::File *>(file)) {
        if (aiff->hasID3v2Tag()) readID3v2(aiff->tag(), file, out);
    } else if (file) {
        // Ogg Vorbis, Opus, Speex, FLAC in Ogg and the rest: their lyrics, if any, are in the property map.
        readProperties(file->properties(), "Vorbis", out);
    }
}

/// Writes the gathered tags as JSON, leaving out what would take the output past `maximumOutput`.
std::string render(Output &out) {
    std::string json = "{";
    auto member = [&](const char *name, bool has, const std::string &value) {
        if (!has) return;
        if (json.size() > 1) json += ',';
        json += '"'; json += name; json += "\":";
        appendJSONString(json, value);
    };
    member("title", out.hasTitle, out.title);
    member("artist", out.hasArtist, out.artist);
    member("album", out.hasAlbum, out.album);
    if (out.duration > 0) {
        char number[32];
        std::snprintf(number, sizeof number, "%.3f", out.duration);
        if (json.size() > 1) json += ',';
        json += "\"duration\":"; json += number;
    }
    // Room kept for the closing notes, so that a capped output still says why.
    const size_t budget = maximumOutput - 4096;
    bool capped = false;
    bool first = true;
    // Adds `item` to the array being written, unless it would pass the budget: then it is left out and the
    // output marked capped. Says whether it was added.
    auto arrayItem = [&](const std::string &item) {
        if (json.size() + item.size() + 1 > budget) { capped = true; return false; }
        if (!first) json += ',';
        json += item;
        first = false;
        return true;
    };
    if (json.size() > 1) json += ',';
    json += "\"synced\":[";
    for (const auto &line : out.synced) {
        std::string item = "{\"ms\":" + std::to_string(line.ms) + ",\"text\":";
        appendJSONString(item, line.text);
        item += '}';
        if (!arrayItem(item)) break;
    }
    json += ']';
    if (!out.syncedSource.empty()) { json += ",\"syncedSource\":"; appendJSONString(json, out.syncedSource); }
    json += ",\"texts\":[";
    first = true;
    for (const auto &text : out.texts) {
        std::string item = "{\"source\":";
        appendJSONString(item, text.source);
        item += ",\"text\":";
        appendJSONString(item, text.text);
        item += '}';
        arrayItem(item);
    }
    json += ']';
    if (capped) out.notes.push_back("tags larger than 16 MB; some were left out");
    json += ",\"notes\":[";
    for (size_t i = 0; i < out.notes.size() && i < 20; i++) {
        if (i > 0) json += ',';
        appendJSONString(json, out.notes[i]);
    }
    json += "]}\n";
    return json;
}

}  // namespace

/// Reads and prints the tags of `path`; the exit status as above.
static int run(const char *path) {
    // TagLib says nothing useful when a file is missing; an open() first gives the reason.
    int probe = open(path, O_RDONLY);
    if (probe < 0) {
        std::perror(path);
        return 3;
    }
    struct stat info;
    bool regular = fstat(probe, &info) == 0 && S_ISREG(info.st_mode);
    close(probe);
    if (!regular) {
        std::fprintf(stderr, "%s: not a regular file\n", path);
        return 3;
    }
    TagLib::FileRef ref(path, true, TagLib::AudioProperties::Average);
    if (ref.isNull() || !ref.file()->isValid()) {
        std::fprintf(stderr, "%s: not an audio file TagLib reads\n", path);
        return 4;
    }
    Output out;
    read(ref, out);
    // TagLib takes any bytes named .mp3 for MPEG audio; with no length and no tag at all, it is not.
    if (out.duration <= 0 && !out.hasTitle && !out.hasArtist && !out.hasAlbum && out.synced.empty()
        && out.texts.empty()) {
        std::fprintf(stderr, "%s: not an audio file TagLib reads\n", path);
        return 4;
    }
    std::string json = render(out);
    size_t written = 0;
    while (written < json.size()) {
        ssize_t count = write(1, json.data() + written, json.size() - written);
        if (count <= 0) return 1;
        written += static_cast<size_t>(count);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fputs("usage: karaoke-tags AUDIO-FILE\n", stderr);
        return 2;
    }
    // However a tag lies about its size, this process never takes more than 1 GB of address space: an
    // allocation past it fails (std::bad_alloc, caught below) instead of swapping the machine.
    // Not under a sanitizer: ThreadSanitizer and AddressSanitizer reserve terabytes of address space for their
    // shadow memory and fail at once under any such limit (`make check-tsan` runs this helper).
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define KK_SANITIZED 1
#endif
#endif
#ifndef KK_SANITIZED
    struct rlimit limit = {1UL << 30, 1UL << 30};
    setrlimit(RLIMIT_AS, &limit);
#endif
    try {
        return run(argv[1]);
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr, "karaoke-tags: the tags need more than 1 GB of memory\n");
    } catch (const std::exception &error) {
        std::fprintf(stderr, "karaoke-tags: %s\n", error.what());
    } catch (...) {
        std::fprintf(stderr, "karaoke-tags: TagLib failed\n");
    }
    return 5;
}
