#!/usr/bin/env python3
"""Synthesises lantern-river.opus, the demo song's backing track: soft chords and a plucked
pentatonic line, one chord per lyric line, written from scratch (no samples, no recordings).

Run from the repository root: python3 lyrics/synthesize-demo-audio.py (needs ffmpeg for Opus)."""
import math, struct, subprocess, sys

RATE = 22050
LENGTH = 100.0
# The lyric lines' start times (lantern-river.lrc) and a chord for each: the harmony moves with the words.
STARTS = [0.0, 4.0, 8.5, 13.0, 18.0, 22.0, 26.5, 31.0, 36.0, 40.0, 44.5, 56.5, 61.0, 65.5, 70.5, 75.0,
          79.0, 83.5, 88.5, 93.0, 97.5]
CHORDS = [[57, 60, 64], [53, 57, 60], [48, 52, 55], [55, 59, 62]]  # Am F C G, as MIDI notes
SCALE = [57, 60, 62, 64, 67, 69, 72, 74]  # A minor pentatonic, two octaves


def frequency(note):
    return 440.0 * 2 ** ((note - 69) / 12)


def render():
    samples = [0.0] * int(RATE * LENGTH)
    for index, start in enumerate(STARTS):
        end = STARTS[index + 1] if index + 1 < len(STARTS) else LENGTH
        chord = CHORDS[index % len(CHORDS)]
        for note in chord:  # a pad that swells in and fades out over the line
            f = frequency(note - 12)
            for n in range(int(start * RATE), int(end * RATE)):
                t = n / RATE - start
                envelope = min(1.0, t / 0.6) * min(1.0, (end - start - t) / 0.8)
                samples[n] += 0.05 * envelope * math.sin(2 * math.pi * f * t)
        step = 0.5  # plucked eighth notes walking the scale around the chord's root
        t = start
        k = index * 3
        while t + step <= end:
            note = SCALE[(k * 5 + index) % len(SCALE)]
            f = frequency(note)
            for n in range(int(t * RATE), min(len(samples), int((t + 0.45) * RATE))):
                u = n / RATE - t
                samples[n] += 0.12 * math.exp(-6 * u) * math.sin(2 * math.pi * f * u)
            t += step
            k += 1
    peak = max(abs(s) for s in samples) or 1.0
    return b"".join(struct.pack("<h", int(28000 * s / peak)) for s in samples)


def main():
    pcm = render()
    wav = "/tmp/lantern-river-demo.wav"
    with open(wav, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", 36 + len(pcm)) + b"WAVEfmt "
                + struct.pack("<IHHIIHH", 16, 1, 1, RATE, RATE * 2, 2, 16) + b"data" + struct.pack("<I", len(pcm)))
        f.write(pcm)
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", wav, "-c:a", "libopus", "-b:a", "20k",
                    "lyrics/lantern-river.opus"], check=True)


if __name__ == "__main__":
    sys.exit(main())
