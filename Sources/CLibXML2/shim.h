#ifndef KK_LIBXML2_SHIM_H
#define KK_LIBXML2_SHIM_H

/* libxml2's SAX2 push parser, loaded with dlopen on first use.
 *
 * Debian's libxml2.so.2 links ICU (libicuuc and 30 MB of libicudata), and only reading TTML needs it, so
 * karaoke does not link it: the first TTML file loads it, and a missing libxml2 is an error about that
 * file only. Every dlopen and dlsym of the program is here. The few libxml2 types used are declared below
 * by their documented ABI (unchanged since libxml2 2.6), so neither libxml2-dev nor its include path is
 * needed to build.
 *
 * SAX rather than the xmlReader: the reader parses ahead in chunks, and an XML error in a chunk loses the
 * nodes before it in the same chunk, where SAX has handed on everything before the error. */

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* libxml2's error record (`struct _xmlError`, xmlerror.h). */
typedef struct {
    int domain;
    int code;
    char *message;
    int level; /* 1 warning, 2 error, 3 fatal */
    char *file;
    int line;
    char *str1;
    char *str2;
    char *str3;
    int int1;
    int int2; /* the column */
    void *ctxt;
    void *node;
} kk_xml_error_record;

typedef void (*kk_xml_any_func)(void);
typedef void (*kk_xml_start_element_ns_func)(void *context, const unsigned char *local_name,
                                             const unsigned char *prefix, const unsigned char *uri,
                                             int namespace_count, const unsigned char **namespaces,
                                             int attribute_count, int defaulted_count,
                                             const unsigned char **attributes);
typedef void (*kk_xml_end_element_ns_func)(void *context, const unsigned char *local_name,
                                           const unsigned char *prefix, const unsigned char *uri);
typedef void (*kk_xml_characters_func)(void *context, const unsigned char *text, int length);
typedef void (*kk_xml_structured_error_func)(void *context, kk_xml_error_record *error);
typedef void (*kk_xml_generic_error_func)(void *context, const char *message, ...);

/* libxml2's SAX handler (`struct _xmlSAXHandler`, parser.h); the callbacks not used stay NULL. */
typedef struct {
    kk_xml_any_func internal_subset, is_standalone, has_internal_subset, has_external_subset, resolve_entity,
        get_entity, entity_decl, notation_decl, attribute_decl, element_decl, unparsed_entity_decl,
        set_document_locator, start_document, end_document, start_element, end_element, reference;
    kk_xml_characters_func characters;
    kk_xml_characters_func ignorable_whitespace;
    kk_xml_any_func processing_instruction, comment, warning, error, fatal_error, get_parameter_entity;
    kk_xml_characters_func cdata_block;
    kk_xml_any_func external_subset;
    unsigned int initialized; /* KK_XML_SAX2_MAGIC */
    void *private_data;
    kk_xml_start_element_ns_func start_element_ns;
    kk_xml_end_element_ns_func end_element_ns;
    kk_xml_structured_error_func structured_error;
} kk_xml_sax_handler;

#define KK_XML_SAX2_MAGIC 0xDEEDBEAFu

/* xmlParserOption values (parser.h). */
enum {
    KK_XML_PARSE_NONET = 1 << 11,     /* no network access, whatever a DOCTYPE names */
    KK_XML_PARSE_IGNORE_ENC = 1 << 21 /* the text is UTF-8 whatever its declaration says */
};

/* XML_CHAR_ENCODING_UTF8 (encoding.h). */
enum { KK_XML_CHAR_ENCODING_UTF8 = 1 };

/* The libxml2 functions used, resolved once. */
typedef struct {
    void *(*create_push_parser)(kk_xml_sax_handler *sax, void *user_data, const char *chunk, int size,
                                const char *file_name);
    int (*use_options)(void *parser, int options);
    int (*switch_encoding)(void *parser, int encoding);
    int (*parse_chunk)(void *parser, const char *chunk, int size, int terminate);
    int (*line_number)(void *parser);
    void (*reset)(void *parser);
    void (*free_parser)(void *parser);
    void (*set_generic_error_func)(void *context, kk_xml_generic_error_func handler);
    void (*init_parser)(void);
} kk_xml_functions;

/* The loaded functions, or the reason they could not be loaded. */
typedef struct {
    pthread_once_t once;
    kk_xml_functions functions;
    int loaded;
    char failure[512];
} kk_xml_library_state;

/* The one state of the process: a weak global, not a static, so every object file that inlines these
 * functions refers to the same one (the linker keeps one definition). With a function-local static, each
 * object got its own copy, and where the loader had been inlined elsewhere the optimiser saw a copy that
 * is never written and removed the calls through it. */
__attribute__((weak)) kk_xml_library_state kk_xml_state = {PTHREAD_ONCE_INIT};

static inline kk_xml_library_state *kk_xml_library(void) { return &kk_xml_state; }

/* Resolves `name` into `slot`; records the first failure. */
static inline void kk_xml_resolve(void *handle, const char *name, void *slot, kk_xml_library_state *state) {
    /* Copied, not stored through a `void **`: the slot is a function pointer, and a store of another
     * type would let the optimiser assume the slot is never written (it removed calls through it). */
    void *symbol = dlsym(handle, name);
    memcpy(slot, &symbol, sizeof symbol);
    if (symbol == NULL && state->failure[0] == 0) {
        const char *reason = dlerror();
        strncpy(state->failure, reason ? reason : name, sizeof state->failure - 1);
    }
}

/* Loads libxml2 and every function used; run once. */
static inline void kk_xml_load_once(void) {
    kk_xml_library_state *state = kk_xml_library();
    void *handle = dlopen("libxml2.so.2", RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        strncpy(state->failure, reason ? reason : "libxml2.so.2 not found", sizeof state->failure - 1);
        return;
    }
    kk_xml_functions *f = &state->functions;
    kk_xml_resolve(handle, "xmlCreatePushParserCtxt", (void *)&f->create_push_parser, state);
    kk_xml_resolve(handle, "xmlCtxtUseOptions", (void *)&f->use_options, state);
    kk_xml_resolve(handle, "xmlSwitchEncoding", (void *)&f->switch_encoding, state);
    kk_xml_resolve(handle, "xmlParseChunk", (void *)&f->parse_chunk, state);
    kk_xml_resolve(handle, "xmlSAX2GetLineNumber", (void *)&f->line_number, state);
    kk_xml_resolve(handle, "xmlCtxtReset", (void *)&f->reset, state);
    kk_xml_resolve(handle, "xmlFreeParserCtxt", (void *)&f->free_parser, state);
    kk_xml_resolve(handle, "xmlSetGenericErrorFunc", (void *)&f->set_generic_error_func, state);
    kk_xml_resolve(handle, "xmlInitParser", (void *)&f->init_parser, state);
    /* The handle stays open for the life of the process: libxml2 keeps global state. */
    state->loaded = state->failure[0] == 0;
    /* libxml2 sets up its globals here, once, before threads may parse at the same time. */
    if (state->loaded) f->init_parser();
}

/* Loads libxml2 on the first call. Returns NULL when it is ready, else why not (dlopen's or dlsym's
 * message), a string that lives as long as the process. */
static inline const char *kk_xml_load(void) {
    kk_xml_library_state *state = kk_xml_library();
    pthread_once(&state->once, kk_xml_load_once);
    return state->loaded ? NULL : state->failure;
}

/* What a parse hands on, in document order. Names and text are UTF-8 and valid during the call only. */
typedef struct {
    /* Passed back to every callback. */
    void *context;
    /* An element opens: its prefix (NULL for none) and local name, its attributes as `attribute_count`
     * groups of five pointers (local name, prefix or NULL, namespace URI or NULL, first byte of the value,
     * byte after the value), and the file line of the end of its start tag. */
    void (*start_element)(void *context, const unsigned char *prefix, const unsigned char *local_name,
                          int attribute_count, const unsigned char **attributes, int line);
    /* The element opened last closes. */
    void (*end_element)(void *context);
    /* Characters, CDATA or whitespace: `length` bytes, entities replaced. */
    void (*characters)(void *context, const unsigned char *text, int length);
} kk_xml_events;

/* Where the XML broke: libxml2's error code (`xmlParserErrors`), line and column. */
typedef struct {
    int code;
    int line;
    int column;
} kk_xml_failure;

/* One parse under way: the receiver of its events, its parser and its first fatal error. */
typedef struct {
    const kk_xml_events *events;
    void *parser;
    kk_xml_failure failure;
    int failed;
} kk_xml_parse_state;

/* SAX2 start element: hands the element on with its line. */
static void kk_xml_on_start(void *context, const unsigned char *local_name, const unsigned char *prefix,
                            const unsigned char *uri, int namespace_count, const unsigned char **namespaces,
                            int attribute_count, int defaulted_count, const unsigned char **attributes) {
    (void)uri, (void)namespace_count, (void)namespaces, (void)defaulted_count;
    kk_xml_parse_state *state = (kk_xml_parse_state *)context;
    int line = kk_xml_library()->functions.line_number(state->parser);
    state->events->start_element(state->events->context, prefix, local_name, attribute_count, attributes, line);
}

/* SAX2 end element. */
static void kk_xml_on_end(void *context, const unsigned char *local_name, const unsigned char *prefix,
                          const unsigned char *uri) {
    (void)local_name, (void)prefix, (void)uri;
    kk_xml_parse_state *state = (kk_xml_parse_state *)context;
    state->events->end_element(state->events->context);
}

/* SAX characters, whitespace and CDATA alike. */
static void kk_xml_on_characters(void *context, const unsigned char *text, int length) {
    kk_xml_parse_state *state = (kk_xml_parse_state *)context;
    state->events->characters(state->events->context, text, length);
}

/* Keeps the first fatal error (after one, libxml2 hands nothing more on); prints nothing. Errors that are
 * not fatal (a namespace prefix never declared, say) let the parse go on and are not reported. */
static void kk_xml_on_error(void *context, kk_xml_error_record *error) {
    kk_xml_parse_state *state = (kk_xml_parse_state *)context;
    if (error == NULL || error->level < 3 || state->failed) return;
    state->failed = 1;
    state->failure.code = error->code;
    state->failure.line = error->line;
    state->failure.column = error->int2;
}

/* Swallows libxml2's messages that bypass the parser's handler (it would print them to stderr). */
static void kk_xml_silence(void *context, const char *message, ...) {
    (void)context, (void)message;
}

/* Parses `count` bytes of UTF-8 at `bytes` into `events`. The network is off; an encoding named in the XML
 * declaration is ignored; entities declared by the document are not expanded (a reference to one is an
 * error), external ones never loaded. Returns 0 when the whole document was read, 1 when the XML broke
 * (`failure` says where; everything before was handed on), -1 when libxml2 is not loaded (see
 * `kk_xml_load`) or memory ran out. */
static inline int kk_xml_parse(const char *bytes, int count, const kk_xml_events *events, kk_xml_failure *failure) {
    if (kk_xml_load() != NULL) return -1;
    const kk_xml_functions *f = &kk_xml_library()->functions;
    kk_xml_sax_handler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = KK_XML_SAX2_MAGIC;
    sax.start_element_ns = kk_xml_on_start;
    sax.end_element_ns = kk_xml_on_end;
    sax.characters = kk_xml_on_characters;
    sax.ignorable_whitespace = kk_xml_on_characters;
    sax.cdata_block = kk_xml_on_characters;
    sax.structured_error = kk_xml_on_error;
    kk_xml_parse_state state;
    memset(&state, 0, sizeof state);
    state.events = events;
    f->set_generic_error_func(NULL, kk_xml_silence);
    state.parser = f->create_push_parser(&sax, &state, NULL, 0, NULL);
    if (state.parser == NULL) return -1;
    f->use_options(state.parser, KK_XML_PARSE_NONET | KK_XML_PARSE_IGNORE_ENC);
    f->switch_encoding(state.parser, KK_XML_CHAR_ENCODING_UTF8);
    f->parse_chunk(state.parser, bytes, count, 1);
    /* Frees the document libxml2 makes for itself when the DOCTYPE declares entities, then the parser. */
    f->reset(state.parser);
    f->free_parser(state.parser);
    if (!state.failed) return 0;
    *failure = state.failure;
    return 1;
}

#endif
