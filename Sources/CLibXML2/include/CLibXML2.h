#ifndef KK_LIBXML2_SHIM_H
#define KK_LIBXML2_SHIM_H

/* libxml2's SAX2 push parser, loaded on first use.
 *
 * Debian's libxml2.so.2 links ICU (libicuuc and 30 MB of libicudata), and only reading TTML needs it, so
 * karaoke does not link it: the first TTML file loads it through the optional-library loader, and a
 * missing libxml2 is an error about that file only. The parse is C (libxml2.c), since libxml2 calls back
 * into C with its own structures; this header declares what Swift calls.
 *
 * SAX rather than the xmlReader: the reader parses ahead in chunks, and an XML error in a chunk loses the
 * nodes before it in the same chunk, where SAX has handed on everything before the error. */

#include <stddef.h>

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

/* Loads libxml2 on the first call. Returns NULL when it is ready, else the message to show, naming the
 * Debian package and the loader's reason (a string that lives as long as the process). */
const char *kk_xml_load(void);

/* Writes the message of a TTML file that libxml2 cannot read, with `reason`, into `text` (`size` bytes):
 * the words `kk_xml_load` uses, for a failure after loading and for telling such a message apart. */
void kk_xml_missing_message(const char *reason, char *text, size_t size);

/* Parses `count` bytes of UTF-8 at `bytes` into `events`. The network is off; an encoding named in the XML
 * declaration is ignored; entities declared by the document are not expanded (a reference to one is an
 * error), external ones never loaded. Returns 0 when the whole document was read, 1 when the XML broke
 * (`failure` says where; everything before was handed on), -1 when libxml2 cannot be loaded (see
 * `kk_xml_load`) or memory ran out. */
int kk_xml_parse(const char *bytes, int count, const kk_xml_events *events, kk_xml_failure *failure);

#endif
