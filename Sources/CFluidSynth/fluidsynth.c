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
/* fluid_midi_event_get_type's value for a note-on (the status byte's high nibble). */
enum { kk_note_on = 0x90 };

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
    int (*synth_write_s16)(void *synth, int length, void *left, int left_offset, int left_step, void *right,
                           int right_offset, int right_step);
    int (*synth_handle_midi_event)(void *synth, void *event);
    int (*synth_get_active_voice_count)(void *synth);
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
    int (*event_get_velocity)(const void *event);
    int (*event_set_velocity)(void *event, int velocity);
    kk_fluid_log_function (*set_log_function)(int level, kk_fluid_log_function function, void *data);
} kk_fluidsynth_functions;

/* Filled by the loader. */
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
KK_OPTIONAL_LIBRARY(kk_fluidsynth_library, kk_fluidsynth_load, kk_fluid, "libfluidsynth.so.3",
                    "the music of MIDI files needs FluidSynth's libfluidsynth.so.3 (Debian: libfluidsynth3 "
                    "timgm6mb-soundfont): {reason}",
                    "new_fluid_settings delete_fluid_settings fluid_settings_setnum fluid_settings_setint "
                    "fluid_settings_setstr new_fluid_synth delete_fluid_synth fluid_synth_sfload "
                    "fluid_synth_write_s16 fluid_synth_handle_midi_event fluid_synth_get_active_voice_count "
                    "new_fluid_player delete_fluid_player fluid_player_add_mem fluid_player_play "
                    "fluid_player_get_status fluid_player_get_current_tick fluid_player_get_total_ticks "
                    "fluid_player_set_playback_callback fluid_midi_event_get_type fluid_midi_event_get_channel "
                    "fluid_midi_event_get_velocity fluid_midi_event_set_velocity fluid_set_log_function",
                    kk_fluidsynth_set_up)

struct kk_fluidsynth_renderer {
    void *settings;
    /* The whole song, and the song with the melody down (NULL without a melody channel). */
    void *whole;
    void *accompaniment;
    void *player;
    int melody_channel;
    int melody_percent;
    /* Frames rendered since the player finished, and since the whole song's output last rose above the
     * silence level. */
    int tail_frames;
    int quiet_frames;
    int rate;
};

/* Every event the player plays goes to both synthesisers; on the second, the melody channel's note-ons
 * are turned down. Called inside the first synthesiser's rendering, at the start of one of its blocks, so
 * the second (rendered next, block for block) hears the event at the same sample. */
static int kk_fluid_play_event(void *data, void *event) {
    kk_fluidsynth_renderer *renderer = data;
    int status = kk_fluid.synth_handle_midi_event(renderer->whole, event);
    if (renderer->accompaniment == NULL) return status;
    int velocity = kk_fluid.event_get_velocity(event);
    int lowered = kk_fluid.event_get_type(event) == kk_note_on &&
                  kk_fluid.event_get_channel(event) == renderer->melody_channel && velocity > 0;
    if (lowered) {
        /* A velocity of 0 would be a note-off; a silent melody keeps 1, which is far below hearing. */
        int quiet = velocity * renderer->melody_percent / 100;
        kk_fluid.event_set_velocity(event, quiet < 1 ? 1 : quiet);
    }
    kk_fluid.synth_handle_midi_event(renderer->accompaniment, event);
    /* The player owns the event: put it back as it was. */
    if (lowered) kk_fluid.event_set_velocity(event, velocity);
    return status;
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
    renderer->melody_percent = melody_percent;
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
    renderer->whole = kk_fluid_synth(renderer->settings, soundfont, reason, size);
    if (renderer->whole == NULL) {
        kk_fluidsynth_close(renderer);
        return NULL;
    }
    if (melody_channel >= 0 && melody_channel <= 15) {
        renderer->accompaniment = kk_fluid_synth(renderer->settings, soundfont, reason, size);
        if (renderer->accompaniment == NULL) {
            kk_fluidsynth_close(renderer);
            return NULL;
        }
    }
    renderer->player = kk_fluid.new_player(renderer->whole);
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

/* The level (of 32,767) at or below which the tail counts as silent: a little above the dither's noise. */
enum { kk_silence_level = 4 };

/* Whether each of the `count` samples at `samples` is silent. */
static int kk_is_quiet(const int16_t *samples, int count) {
    for (int i = 0; i < count; i++)
        if (samples[i] > kk_silence_level || samples[i] < -kk_silence_level) return 0;
    return 1;
}

int kk_fluidsynth_render(kk_fluidsynth_renderer *renderer, int16_t *whole, int16_t *accompaniment, int frames) {
    int done = 0;
    while (done + KK_FLUIDSYNTH_BLOCK <= frames) {
        int playing = kk_fluid.player_get_status(renderer->player) == kk_fluid_player_playing;
        if (!playing) {
            /* The tail: the release of the last notes and the reverb, until a tenth of a second is silent
             * on both (voices may still sound below hearing for a long time), or the most allowed. */
            if (renderer->tail_frames >= KK_FLUIDSYNTH_TAIL * renderer->rate) break;
            if (renderer->quiet_frames >= renderer->rate / 10) break;
        }
        int16_t *out = whole + 2 * done;
        kk_fluid.synth_write_s16(renderer->whole, KK_FLUIDSYNTH_BLOCK, out, 0, 2, out, 1, 2);
        int quiet = kk_is_quiet(out, 2 * KK_FLUIDSYNTH_BLOCK);
        if (renderer->accompaniment != NULL) {
            int16_t *other = accompaniment + 2 * done;
            kk_fluid.synth_write_s16(renderer->accompaniment, KK_FLUIDSYNTH_BLOCK, other, 0, 2, other, 1, 2);
            quiet = quiet && kk_is_quiet(other, 2 * KK_FLUIDSYNTH_BLOCK);
        }
        if (!playing) {
            renderer->tail_frames += KK_FLUIDSYNTH_BLOCK;
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
    if (renderer->accompaniment) kk_fluid.delete_synth(renderer->accompaniment);
    if (renderer->whole) kk_fluid.delete_synth(renderer->whole);
    if (renderer->settings) kk_fluid.delete_settings(renderer->settings);
    free(renderer);
}
