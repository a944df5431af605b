#!/usr/bin/env python3
"""Writes small tagged audio files for the tag tests into the folder given: 3 s of sine from ffmpeg,
tags from mutagen, and a few broken files written by hand. Exits 3 when ffmpeg or mutagen is missing."""
import os
import shutil
import struct
import subprocess
import sys

try:
    from mutagen.id3 import ID3, SYLT, USLT, TIT2, TPE1, TALB, Encoding
    from mutagen.flac import FLAC
    from mutagen.oggvorbis import OggVorbis
    from mutagen.oggopus import OggOpus
    from mutagen.mp4 import MP4
except ImportError:
    print("mutagen is missing (make deps-test installs it)", file=sys.stderr)
    sys.exit(3)
if shutil.which("ffmpeg") is None:
    print("ffmpeg is missing (make deps-test installs it)", file=sys.stderr)
    sys.exit(3)

out = sys.argv[1]
LRC = "[ti:Lantern]\n[00:01.00]first lrc line\n[00:02.00]second lrc line\n"


def audio(name, *codec):
    path = os.path.join(out, name)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=3", *codec, path], check=True)
    return path


def id3(path, *frames):
    tags = ID3()
    tags.add(TIT2(encoding=Encoding.UTF8, text="Lantern River"))
    tags.add(TPE1(encoding=Encoding.UTF8, text="The Tests"))
    tags.add(TALB(encoding=Encoding.UTF8, text="Fixtures"))
    for frame in frames:
        tags.add(frame)
    tags.save(path, v2_version=3)


base = audio("base.mp3", "-c:a", "libmp3lame")
for name in ["sylt.mp3", "uslt.mp3", "plain.mp3", "frames.mp3", "two-sylt.mp3"]:
    shutil.copy(base, os.path.join(out, name))
id3(os.path.join(out, "sylt.mp3"),
    SYLT(encoding=Encoding.UTF16, lang="eng", format=2, type=1,
         text=[("second line", 2000), ("first \x1b[31mline\u202e", 1000), ("", 2500), ("third line", 3000)]))
id3(os.path.join(out, "uslt.mp3"), USLT(encoding=Encoding.UTF16, lang="eng", desc="", text=LRC))
id3(os.path.join(out, "plain.mp3"), USLT(encoding=Encoding.UTF8, lang="eng", desc="", text="just words\nno times\n"))
# 10 MPEG frames of 1152 samples at 44.1 kHz: 261 ms.
id3(os.path.join(out, "frames.mp3"),
    SYLT(encoding=Encoding.UTF8, lang="eng", format=1, type=1, text=[("framed", 10)]))
id3(os.path.join(out, "two-sylt.mp3"),
    SYLT(encoding=Encoding.UTF8, lang="deu", desc="short", format=2, type=1, text=[("kurz", 500)]),
    SYLT(encoding=Encoding.UTF8, lang="eng", desc="full", format=2, type=1, text=[("one", 500), ("two", 1500)]),
    SYLT(encoding=Encoding.UTF8, lang="eng", desc="chords", format=2, type=2,
         text=[("a", 1), ("b", 2), ("c", 3)]))

flac = FLAC(audio("lyrics.flac"))
flac["TITLE"] = "Flac Song"
flac["ARTIST"] = "The Tests"
flac["LYRICS"] = LRC
flac.save()
ogg = OggVorbis(audio("lyrics.ogg", "-c:a", "libvorbis"))
ogg["LYRICS"] = LRC
ogg.save()
opus = OggOpus(audio("lyrics.opus", "-c:a", "libopus"))
opus["SYNCEDLYRICS"] = LRC
opus.save()
m4a = MP4(audio("lyrics.m4a", "-c:a", "aac"))
m4a["\xa9lyr"] = LRC
m4a["\xa9nam"] = "Mp4 Song"
m4a.save()

# Broken files: the tagged MP3 cut inside its tag, random bytes named .mp3, and an ID3v2.3 tag whose SYLT
# frame claims 0xFFFFFFF0 bytes (about 4 GB) in front of real audio.
with open(os.path.join(out, "sylt.mp3"), "rb") as whole:
    head = whole.read(60)
with open(os.path.join(out, "truncated.mp3"), "wb") as cut:
    cut.write(head)
with open(os.path.join(out, "random.mp3"), "wb") as noise:
    noise.write(bytes((i * 7919 + 13) % 251 for i in range(4096)))
frame = b"SYLT" + struct.pack(">I", 0xFFFFFFF0) + b"\x00\x00" + b"\x00eng\x02\x01" + b"la\x00" + struct.pack(">I", 1000)
size = len(frame) + 64
synchsafe = bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F])
with open(base, "rb") as plain_audio:
    body = plain_audio.read()
with open(os.path.join(out, "huge-sylt.mp3"), "wb") as lying:
    lying.write(b"ID3\x03\x00\x00" + synchsafe + frame + b"\x00" * 64 + body)


def synchsafe_size(size):
    return bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F])


# Text that is not valid in its declared encoding: a UTF-8 USLT with stray bytes and an encoded surrogate,
# and a UTF-16 title with a lone surrogate.
uslt = b"\x03eng\x00" + b"[00:01.00]bad \xff\xfe byte \xed\xa0\x80 end"
title = b"\x01\xff\xfe\x00\xd8a\x00"
broken_text = (b"USLT" + synchsafe_size(len(uslt)) + b"\x00\x00" + uslt
               + b"TIT2" + synchsafe_size(len(title)) + b"\x00\x00" + title)
with open(os.path.join(out, "bad-text.mp3"), "wb") as bad:
    bad.write(b"ID3\x04\x00\x00" + synchsafe_size(len(broken_text)) + broken_text + body)

# An ID3v2.3 tag whose header claims the largest size there is (256 MB) around a SYLT frame claiming 4 GB.
lying_frame = b"SYLT" + b"\xff\xff\xff\xf0" + b"\x00\x00" + b"\x00eng\x02\x01la\x00" + struct.pack(">I", 1000)
with open(os.path.join(out, "huge-tag.mp3"), "wb") as lying:
    lying.write(b"ID3\x03\x00\x00\x7f\x7f\x7f\x7f" + lying_frame + body)

# More synced lines than the helper prints (100,000), and two 9 MB lyric texts (more than its 16 MB output).
shutil.copy(base, os.path.join(out, "many.mp3"))
many = ID3()
many.add(SYLT(encoding=Encoding.UTF8, lang="eng", format=2, type=1, text=[("w%d" % i, i) for i in range(100005)]))
many.save(os.path.join(out, "many.mp3"))
shutil.copy(base, os.path.join(out, "large.mp3"))
large = ID3()
large.add(USLT(encoding=Encoding.UTF8, lang="eng", desc="a", text="[00:01.00]" + "a" * (9 << 20)))
large.add(USLT(encoding=Encoding.UTF8, lang="eng", desc="b", text="[00:01.00]" + "b" * (9 << 20)))
large.save(os.path.join(out, "large.mp3"))
