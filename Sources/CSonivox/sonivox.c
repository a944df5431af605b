/* libsonivox's EAS synthesiser, loaded on first use.
 *
 * The types below are EAS 3.6's public ABI as eas.h and eas_types.h declare it (EAS_RESULT, EAS_I32 and
 * EAS_STATE are `long`; the handles are pointers), written out so that libsonivox-dev is not needed to build. */

#include "CSonivox.h"

#include <optional_library.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* EAS_FILE: a file EAS reads through two callbacks, here over bytes in memory. */
typedef struct {
    void *handle;
    int (*read_at)(void *handle, void *buffer, int offset, int size);
    int (*size)(void *handle);
} kk_eas_file;

/* S_EAS_LIB_CONFIG: what the library was built with. */
typedef struct {
    unsigned long version;
    unsigned checked_version;
    long voices;
    long channels;
    long rate;
    long block;
    unsigned filter;
    unsigned long built;
    char *guid;
} kk_eas_config;

/* E_EAS_STATE's values used here. */
enum { kk_eas_stopping = 2, kk_eas_stopped = 4, kk_eas_error = 7 };

/* The EAS functions used, in the order of kk_sonivox_library's symbols. */
typedef struct {
    const kk_eas_config *(*config)(void);
    long (*init)(void **data);
    long (*shutdown)(void *data);
    long (*open_file)(void *data, kk_eas_file *locator, void **stream);
    long (*prepare)(void *data, void *stream);
    long (*render)(void *data, int16_t *out, long frames, long *generated);
    long (*state)(void *data, void *stream, long *state);
    long (*get_location)(void *data, void *stream, long *milliseconds);
    long (*close_file)(void *data, void *stream);
    void (*set_debug_level)(int level);
} kk_sonivox_functions;

/* Filled by the loader; declared ahead of its KK_OPTIONAL_LIBRARY for the set-up below. */
static kk_sonivox_functions kk_eas;
/* The library's build, read once it is loaded. */
static kk_eas_config kk_eas_built;
static char kk_eas_version[32];

static const char *kk_sonivox_set_up(void) {
    /* EAS reports every message, down to its details, on stderr unless told otherwise: that would write over
     * the screen. Nothing is lost: every failure comes back as a result code. */
    kk_eas.set_debug_level(-1);
    const kk_eas_config *config = kk_eas.config();
    if (config == NULL) return "libsonivox gives no configuration";
    kk_eas_built = *config;
    if (kk_eas_built.channels < 1 || kk_eas_built.channels > 2) return "libsonivox renders neither mono nor stereo";
    if (kk_eas_built.rate < 8000 || kk_eas_built.block < 1 || kk_eas_built.block > 4096)
        return "libsonivox's rate or block size is out of range";
    unsigned long v = kk_eas_built.version;
    snprintf(kk_eas_version, sizeof kk_eas_version, "%lu.%lu.%lu.%lu", v >> 24 & 0xFF, v >> 16 & 0xFF, v >> 8 & 0xFF,
             v & 0xFF);
    return NULL;
}

/* libsonivox, loaded by kk_sonivox_load into kk_eas. */
KK_OPTIONAL_LIBRARY(kk_sonivox_library, kk_sonivox_load, kk_sonivox_functions, kk_eas, "libsonivox.so.3",
                    "the music of MIDI files needs libsonivox.so.3 when no SoundFont is installed (Debian: "
                    "libsonivox3): {reason}",
                    "EAS_Config EAS_Init EAS_Shutdown EAS_OpenFile EAS_Prepare EAS_Render EAS_State "
                    "EAS_GetLocation EAS_CloseFile EAS_SetDebugLevel",
                    kk_sonivox_set_up)

int kk_sonivox_rate(void) { return (int)kk_eas_built.rate; }

int kk_sonivox_block(void) { return (int)kk_eas_built.block; }

const char *kk_sonivox_version(void) { return kk_eas_version; }

/* One EAS instance playing one MIDI file from memory. */
typedef struct {
    void *data;
    void *stream;
    kk_eas_file file;
    unsigned char *bytes;
    size_t length;
} kk_eas_player;

struct kk_sonivox_renderer {
    kk_eas_player whole;
    kk_eas_player accompaniment;
    int has_accompaniment;
    /* Frames rendered since the whole song's parser reached its end. */
    long tail_frames;
    /* One EAS block, in EAS's channels. */
    int16_t *block;
};

static int kk_eas_read_at(void *handle, void *buffer, int offset, int size) {
    const kk_eas_player *player = handle;
    if (offset < 0 || size < 0 || (size_t)offset >= player->length) return 0;
    size_t count = player->length - (size_t)offset;
    if (count > (size_t)size) count = (size_t)size;
    memcpy(buffer, player->bytes + offset, count);
    return (int)count;
}

static int kk_eas_size(void *handle) {
    const kk_eas_player *player = handle;
    return (int)player->length;
}

/* EAS's result codes that a MIDI file can cause, in words; others by number. */
static void kk_eas_reason(long result, char *reason, size_t size) {
    const char *text = result == -15   ? "not a file EAS knows"
                       : result == -17 ? "a malformed MIDI file"
                       : result == -3  ? "out of memory"
                                       : NULL;
    if (text) {
        snprintf(reason, size, "%s", text);
    } else {
        snprintf(reason, size, "EAS error %ld", result);
    }
}

/* Starts `player` on a copy of `length` bytes at `midi`; 0, or -1 with the reason. */
static int kk_eas_start(kk_eas_player *player, const void *midi, size_t length, char *reason, size_t size) {
    /* EAS reads positions and sizes as int. */
    if (length == 0 || length > 0x7FFFFFFF) {
        snprintf(reason, size, "a MIDI file of %zu bytes", length);
        return -1;
    }
    player->bytes = malloc(length);
    if (player->bytes == NULL) {
        snprintf(reason, size, "out of memory");
        return -1;
    }
    memcpy(player->bytes, midi, length);
    player->length = length;
    player->file = (kk_eas_file){.handle = player, .read_at = kk_eas_read_at, .size = kk_eas_size};
    long result = kk_eas.init(&player->data);
    if (result == 0) result = kk_eas.open_file(player->data, &player->file, &player->stream);
    if (result == 0) result = kk_eas.prepare(player->data, player->stream);
    if (result != 0) {
        kk_eas_reason(result, reason, size);
        return -1;
    }
    return 0;
}

static void kk_eas_stop(kk_eas_player *player) {
    if (player->stream) kk_eas.close_file(player->data, player->stream);
    if (player->data) kk_eas.shutdown(player->data);
    free(player->bytes);
    memset(player, 0, sizeof *player);
}

kk_sonivox_renderer *kk_sonivox_open(const void *midi, size_t length, const void *accompaniment,
                                     size_t accompaniment_length, char *reason, size_t size) {
    kk_sonivox_renderer *renderer = calloc(1, sizeof *renderer);
    if (renderer) renderer->block = calloc((size_t)(kk_eas_built.block * kk_eas_built.channels), sizeof(int16_t));
    if (renderer == NULL || renderer->block == NULL) {
        snprintf(reason, size, "out of memory");
        kk_sonivox_close(renderer);
        return NULL;
    }
    if (kk_eas_start(&renderer->whole, midi, length, reason, size) != 0) {
        kk_sonivox_close(renderer);
        return NULL;
    }
    if (accompaniment != NULL) {
        renderer->has_accompaniment = 1;
        if (kk_eas_start(&renderer->accompaniment, accompaniment, accompaniment_length, reason, size) != 0) {
            kk_sonivox_close(renderer);
            return NULL;
        }
    }
    return renderer;
}

/* The state of `player`'s stream: a failure to ask counts as stopped, so the rendering ends. */
static long kk_eas_state(const kk_eas_player *player) {
    long state = kk_eas_stopped;
    if (kk_eas.state(player->data, player->stream, &state) != 0) return kk_eas_stopped;
    return state;
}

/* Renders one block of `player` into `out` as stereo; 0, or -1 with the reason. */
static int kk_eas_block(kk_sonivox_renderer *renderer, kk_eas_player *player, int16_t *out, char *reason,
                        size_t size) {
    long generated = 0;
    long result = kk_eas.render(player->data, renderer->block, kk_eas_built.block, &generated);
    if (result != 0 || generated != kk_eas_built.block) {
        kk_eas_reason(result, reason, size);
        return -1;
    }
    if (kk_eas_built.channels == 2) {
        memcpy(out, renderer->block, (size_t)(2 * generated) * sizeof(int16_t));
    } else {
        for (long i = 0; i < generated; i++) out[2 * i] = out[2 * i + 1] = renderer->block[i];
    }
    return 0;
}

int kk_sonivox_render(kk_sonivox_renderer *renderer, int16_t *whole, int16_t *accompaniment, int frames,
                      char *reason, size_t size) {
    int block = (int)kk_eas_built.block, done = 0;
    while (done + block <= frames) {
        long state = kk_eas_state(&renderer->whole);
        if (state == kk_eas_error) {
            snprintf(reason, size, "EAS stopped on an error");
            return -1;
        }
        /* The two instances play the same events at the same samples, but the quieter melody may let the
         * accompaniment's voices end a block apart: both files go on until both have ended, so they stay the
         * same length. */
        int ended = state == kk_eas_stopped;
        if (renderer->has_accompaniment) ended = ended && kk_eas_state(&renderer->accompaniment) == kk_eas_stopped;
        if (ended) break;
        /* The tail (the last notes' release) ends when EAS stops its last voice, or at the most allowed. */
        if (state >= kk_eas_stopping) {
            if (renderer->tail_frames >= (long)KK_SONIVOX_TAIL * kk_eas_built.rate) break;
            renderer->tail_frames += block;
        }
        if (kk_eas_block(renderer, &renderer->whole, whole + 2 * done, reason, size) != 0) return -1;
        if (renderer->has_accompaniment &&
            kk_eas_block(renderer, &renderer->accompaniment, accompaniment + 2 * done, reason, size) != 0)
            return -1;
        done += block;
    }
    return done;
}

long kk_sonivox_position(const kk_sonivox_renderer *renderer) {
    long milliseconds = 0;
    if (kk_eas.get_location(renderer->whole.data, renderer->whole.stream, &milliseconds) != 0) return 0;
    return milliseconds;
}

void kk_sonivox_close(kk_sonivox_renderer *renderer) {
    if (renderer == NULL) return;
    kk_eas_stop(&renderer->accompaniment);
    kk_eas_stop(&renderer->whole);
    free(renderer->block);
    free(renderer);
}
