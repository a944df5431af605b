/* FluidSynth's synthesiser and MIDI file player, loaded on first use.
 *
 * The types are opaque pointers and the functions are FluidSynth 2's documented API (fluidsynth.h), so
 * libfluidsynth-dev is not needed to build. The player runs on the first synthesiser's sample clock
 * ("player.timing-source" = "sample"), so rendering is as fast as the CPU allows and no audio device is
 * touched. */

#include "CFluidSynth.h"

#include <optional_library.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* FluidSynth's log levels (enum fluid_log_level) and its MIDI player's status while it plays. */
enum { kk_fluid_panic = 0, kk_fluid_error = 1, kk_fluid_warning = 2, kk_fluid_info = 3, kk_fluid_debug = 4 };
enum { kk_fluid_player_playing = 1 };
/* fluid_midi_event_get_type's first value that is not a channel message (sysex, system messages). */
enum { kk_system_message = 0xF0 };

typedef void (*kk_fluid_log_function)(int level, const char *message, void *data);
typedef int (*kk_fluid_event_handler)(void *data, void *event);

/* The FluidSynth functions used, in the order of kk_fluidsynth_library's symbols. */
typedef struct {
    void *(*new_settings)(void);
    void (*delete_settings)(void *settings);
    int (*settings_setnum)(void *settings, const char *name, double value);
    int (*settings_setint)(void *settings, const char *name, int value);
    int (*settings_setstr)(void *settings, const char *name, const char *value);
    void *(*new_synth)(void *settings);
    void (*delete_synth)(void *synth);
    int (*synth_sfload)(void *synth, const char *file, int reset_presets);
    int (*synth_write_float)(void *synth, int length, void *left, int left_offset, int left_step, void *right,
                             int right_offset, int right_step);
    int (*synth_handle_midi_event)(void *synth, void *event);
    void *(*new_player)(void *synth);
    void (*delete_player)(void *player);
    int (*player_add_mem)(void *player, const void *buffer, size_t length);
    int (*player_play)(void *player);
    int (*player_get_status)(void *player);
    int (*player_get_current_tick)(void *player);
    int (*player_get_total_ticks)(void *player);
    int (*player_set_playback_callback)(void *player, kk_fluid_event_handler handler, void *data);
    int (*event_get_type)(const void *event);
    int (*event_get_channel)(const void *event);
    kk_fluid_log_function (*set_log_function)(int level, kk_fluid_log_function function, void *data);
} kk_fluidsynth_functions;

/* Filled by the loader; declared ahead of its KK_OPTIONAL_LIBRARY for the set-up below. */
static kk_fluidsynth_functions kk_fluid;

/* FluidSynth's last error on this thread, kept for the reason a renderer could not be made. */
static _Thread_local char kk_fluid_last_error[256];

/* FluidSynth logs to stderr by default, which would scribble over the screen curses owns: errors are kept
 * for the reason, everything else is dropped. */
static void kk_fluid_log(int level, const char *message, void *data) {
    (void)data;
    if (level <= kk_fluid_error && message) snprintf(kk_fluid_last_error, sizeof kk_fluid_last_error, "%s", message);
}

static const char *kk_fluidsynth_set_up(void) {
    for (int level = kk_fluid_panic; level <= kk_fluid_debug; level++)
        kk_fluid.set_log_function(level, level <= kk_fluid_error ? kk_fluid_log : NULL, NULL);
    return NULL;
}

/* FluidSynth, loaded by kk_fluidsynth_load into kk_fluid. */
KK_OPTIONAL_LIBRARY(kk_fluidsynth_library, kk_fluidsynth_load, kk_fluidsynth_functions, kk_fluid, "libfluidsynth.so.3",
                    "the music of MIDI files needs FluidSynth's libfluidsynth.so.3 (Debian: libfluidsynth3 "
                    "timgm6mb-soundfont): {reason}",
                    "new_fluid_settings delete_fluid_settings fluid_settings_setnum fluid_settings_setint "
                    "fluid_settings_setstr new_fluid_synth delete_fluid_synth fluid_synth_sfload "
                    "fluid_synth_write_float fluid_synth_handle_midi_event "
                    "new_fluid_player delete_fluid_player fluid_player_add_mem fluid_player_play "
                    "fluid_player_get_status fluid_player_get_current_tick fluid_player_get_total_ticks "
                    "fluid_player_set_playback_callback fluid_midi_event_get_type fluid_midi_event_get_channel "
                    "fluid_set_log_function",
                    kk_fluidsynth_set_up)

struct kk_fluidsynth_renderer {
    void *settings;
    /* Every channel but the melody's (every channel without a melody channel), and the melody channel alone
     * (NULL without one). */
    void *rest;
    void *melody;
    void *player;
    int melody_channel;
    /* The melody's level in the accompaniment, 0…1. */
    float melody_level;
    /* One block of each synthesiser's output, left and right interleaved. */
    float rest_block[2 * KK_FLUIDSYNTH_BLOCK];
    float melody_block[2 * KK_FLUIDSYNTH_BLOCK];
    /* Frames rendered since the player finished, and since the whole song's output last rose above the
     * silence level. */
    int tail_frames;
    int quiet_frames;
    int rate;
};

/* The melody channel's events go to the second synthesiser, every other channel's to the first, and what
 * belongs to no channel (sysex: a GM reset, the master volume) to both. Called inside the first
 * synthesiser's rendering, at the start of one of its blocks; the second renders the same block next, so
 * both hear each event at the same sample. */
static int kk_fluid_play_event(void *data, void *event) {
    kk_fluidsynth_renderer *renderer = data;
    if (renderer->melody == NULL) return kk_fluid.synth_handle_midi_event(renderer->rest, event);
    if (kk_fluid.event_get_type(event) >= kk_system_message) {
        kk_fluid.synth_handle_midi_event(renderer->melody, event);
        return kk_fluid.synth_handle_midi_event(renderer->rest, event);
    }
    int melody = kk_fluid.event_get_channel(event) == renderer->melody_channel;
    return kk_fluid.synth_handle_midi_event(melody ? renderer->melody : renderer->rest, event);
}

/* A synthesiser over `settings` with `soundfont` loaded; NULL with the reason in `reason`. */
static void *kk_fluid_synth(void *settings, const char *soundfont, char *reason, size_t size) {
    void *synth = kk_fluid.new_synth(settings);
    if (synth == NULL) {
        snprintf(reason, size, "FluidSynth could not make a synthesiser: %s", kk_fluid_last_error);
        return NULL;
    }
    if (kk_fluid.synth_sfload(synth, soundfont, 1) < 0) {
        snprintf(reason, size, "%s", kk_fluid_last_error[0] ? kk_fluid_last_error : "not a SoundFont");
        kk_fluid.delete_synth(synth);
        return NULL;
    }
    return synth;
}

kk_fluidsynth_renderer *kk_fluidsynth_open(const char *soundfont, const void *midi, size_t length, int melody_channel,
                                           int melody_percent, int rate, char *reason, size_t size) {
    kk_fluid_last_error[0] = 0;
    kk_fluidsynth_renderer *renderer = calloc(1, sizeof *renderer);
    if (renderer == NULL) {
        snprintf(reason, size, "out of memory");
        return NULL;
    }
    renderer->melody_channel = melody_channel;
    renderer->melody_level = melody_percent < 0 ? 0 : melody_percent > 100 ? 1 : melody_percent / 100.0f;
    renderer->rate = rate;
    renderer->settings = kk_fluid.new_settings();
    if (renderer->settings == NULL) {
        snprintf(reason, size, "FluidSynth could not make its settings");
        kk_fluidsynth_close(renderer);
        return NULL;
    }
    kk_fluid.settings_setnum(renderer->settings, "synth.sample-rate", rate);
    kk_fluid.settings_setstr(renderer->settings, "player.timing-source", "sample");
    /* One thread: the machine may be busy, and the renderer's own thread is the one that waits. */
    kk_fluid.settings_setint(renderer->settings, "synth.cpu-cores", 1);
    renderer->rest = kk_fluid_synth(renderer->settings, soundfont, reason, size);
    if (renderer->rest == NULL) {
        kk_fluidsynth_close(renderer);
        return NULL;
    }
    if (melody_channel >= 0 && melody_channel <= 15) {
        renderer->melody = kk_fluid_synth(renderer->settings, soundfont, reason, size);
        if (renderer->melody == NULL) {
            kk_fluidsynth_close(renderer);
            return NULL;
        }
    }
    renderer->player = kk_fluid.new_player(renderer->rest);
    if (renderer->player == NULL) {
        snprintf(reason, size, "FluidSynth could not make a MIDI player: %s", kk_fluid_last_error);
        kk_fluidsynth_close(renderer);
        return NULL;
    }
    kk_fluid.player_set_playback_callback(renderer->player, kk_fluid_play_event, renderer);
    if (kk_fluid.player_add_mem(renderer->player, midi, length) != 0 || kk_fluid.player_play(renderer->player) != 0) {
        snprintf(reason, size, "%s", kk_fluid_last_error[0] ? kk_fluid_last_error : "FluidSynth refused the MIDI file");
        kk_fluidsynth_close(renderer);
        return NULL;
    }
    return renderer;
}

/* The level (of 32,767) at or below which the tail counts as silent. */
enum { kk_silence_level = 4 };

/* `value` (full scale ±1) as a 16-bit sample, rounded and clipped. */
static int16_t kk_sample(float value) {
    float scaled = value * 32767.0f;
    if (scaled >= 32767.0f) return 32767;
    if (scaled <= -32768.0f) return -32768;
    return (int16_t)(scaled < 0 ? scaled - 0.5f : scaled + 0.5f);
}

/* Whether each of the `count` samples at `samples` is silent. */
static int kk_is_quiet(const int16_t *samples, int count) {
    for (int i = 0; i < count; i++)
        if (samples[i] > kk_silence_level || samples[i] < -kk_silence_level) return 0;
    return 1;
}

int kk_fluidsynth_render(kk_fluidsynth_renderer *renderer, int16_t *whole, int16_t *accompaniment, int frames) {
    int done = 0;
    float *rest = renderer->rest_block, *melody = renderer->melody_block;
    while (done + KK_FLUIDSYNTH_BLOCK <= frames) {
        int playing = kk_fluid.player_get_status(renderer->player) == kk_fluid_player_playing;
        if (!playing) {
            /* The tail: the release of the last notes and the reverb, until a tenth of a second is silent
             * (voices may still sound below hearing for a long time), or the most allowed. */
            if (renderer->tail_frames >= KK_FLUIDSYNTH_TAIL * renderer->rate) break;
            if (renderer->quiet_frames >= renderer->rate / 10) break;
        }
        /* The first synthesiser first: it runs the player, whose events the second must have before its block. */
        kk_fluid.synth_write_float(renderer->rest, KK_FLUIDSYNTH_BLOCK, rest, 0, 2, rest, 1, 2);
        int16_t *out = whole + 2 * done;
        if (renderer->melody == NULL) {
            for (int i = 0; i < 2 * KK_FLUIDSYNTH_BLOCK; i++) out[i] = kk_sample(rest[i]);
        } else {
            /* The whole song is the sum of the two (the synthesis, the reverb and the chorus are all linear);
             * the accompaniment has the melody at its level. */
            kk_fluid.synth_write_float(renderer->melody, KK_FLUIDSYNTH_BLOCK, melody, 0, 2, melody, 1, 2);
            int16_t *other = accompaniment + 2 * done;
            for (int i = 0; i < 2 * KK_FLUIDSYNTH_BLOCK; i++) {
                out[i] = kk_sample(rest[i] + melody[i]);
                other[i] = kk_sample(rest[i] + renderer->melody_level * melody[i]);
            }
        }
        if (!playing) {
            renderer->tail_frames += KK_FLUIDSYNTH_BLOCK;
            int quiet = kk_is_quiet(out, 2 * KK_FLUIDSYNTH_BLOCK);
            renderer->quiet_frames = quiet ? renderer->quiet_frames + KK_FLUIDSYNTH_BLOCK : 0;
        }
        done += KK_FLUIDSYNTH_BLOCK;
    }
    return done;
}

double kk_fluidsynth_progress(const kk_fluidsynth_renderer *renderer) {
    if (kk_fluid.player_get_status(renderer->player) != kk_fluid_player_playing) return 1;
    int total = kk_fluid.player_get_total_ticks(renderer->player);
    int current = kk_fluid.player_get_current_tick(renderer->player);
    if (total <= 0 || current <= 0) return 0;
    return current >= total ? 1 : (double)current / total;
}

void kk_fluidsynth_close(kk_fluidsynth_renderer *renderer) {
    if (renderer == NULL) return;
    /* The player first: it holds the first synthesiser's sample timer. */
    if (renderer->player) kk_fluid.delete_player(renderer->player);
    if (renderer->melody) kk_fluid.delete_synth(renderer->melody);
    if (renderer->rest) kk_fluid.delete_synth(renderer->rest);
    if (renderer->settings) kk_fluid.delete_settings(renderer->settings);
    free(renderer);
}
