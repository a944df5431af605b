/* The TTML reader's XML parse over libxml2's SAX2 push parser, loaded on first use.
 *
 * The few libxml2 types used are declared here by their documented ABI (unchanged since libxml2 2.6), so
 * neither libxml2-dev nor its include path is needed to build. */

#include "CLibXML2.h"

#include <optional_library.h>
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

/* The libxml2 functions used, in the order of kk_xml_library's symbols. */
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

/* Filled by the loader; declared ahead of its KK_OPTIONAL_LIBRARY for the set-up below. */
static kk_xml_functions kk_xml;

/* libxml2 sets up its globals here, once, before threads may parse at the same time. */
static const char *kk_xml_set_up(void) {
    kk_xml.init_parser();
    return NULL;
}

/* libxml2, loaded by kk_xml_load into kk_xml. The message ends with the reason: TTMLParser tells it apart by
 * the words before. */
KK_OPTIONAL_LIBRARY(kk_xml_library, kk_xml_load, kk_xml_functions, kk_xml, "libxml2.so.2",
                    "reading TTML needs libxml2 (Debian package libxml2): {reason}",
                    "xmlCreatePushParserCtxt xmlCtxtUseOptions xmlSwitchEncoding xmlParseChunk xmlSAX2GetLineNumber "
                    "xmlCtxtReset xmlFreeParserCtxt xmlSetGenericErrorFunc xmlInitParser",
                    kk_xml_set_up)

void kk_xml_missing_message(const char *reason, char *text, size_t size) {
    kk_optional_library_message(&kk_xml_library, reason, text, size);
}

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
    int line = kk_xml.line_number(state->parser);
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

int kk_xml_parse(const char *bytes, int count, const kk_xml_events *events, kk_xml_failure *failure) {
    if (kk_xml_load() != NULL) return -1;
    const kk_xml_functions *f = &kk_xml;
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
