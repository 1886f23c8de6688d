/* Streaming decoders for the content codings the client asks for (gzip, deflate, br), with the
 * end-of-stream checks libcurl 7.88 does not make: a body cut short is an error, not a prefix. */
#ifndef CONTENT_DECODER_H
#define CONTENT_DECODER_H

#include <stddef.h>

/* The codings: x-gzip is gzip (RFC 9110 §8.4.1.3). */
enum {
    CONTENT_CODING_GZIP = 1,
    CONTENT_CODING_DEFLATE = 2,
    CONTENT_CODING_BR = 3,
};

/* What content_decoder_feed and content_decoder_finish return. */
enum {
    CONTENT_DECODER_OK = 0,
    /* The sink returned 0: decoding stopped (the sink's reason is its own). */
    CONTENT_DECODER_STOPPED = 1,
    /* The bytes are not the coding's format (a bad header, a bad block, a CRC or size mismatch). */
    CONTENT_DECODER_CORRUPT = 2,
    /* Bytes follow the end of the (last) compressed stream. */
    CONTENT_DECODER_TRAILING = 3,
    /* The body ended before its compressed stream did. */
    CONTENT_DECODER_TRUNCATED = 4,
    CONTENT_DECODER_NO_MEMORY = 5,
};

typedef struct content_decoder content_decoder;

/* Decoded bytes for the caller: nonzero to go on, 0 to stop. */
typedef int (*content_decoder_sink)(void *context, const void *bytes, size_t count);

/* The most codings one body may carry stacked (libcurl's limit too). */
#define CONTENT_DECODER_MAX_STACK 5

/* NULL when out of memory (or an unknown coding). */
content_decoder *content_decoder_new(int coding);
/* A decoder for codings applied one after another, listed in the order applied (as
 * Content-Encoding lists them: "gzip, br" is br over gzip): it undoes the last first. NULL when
 * out of memory, for an unknown coding, or for 0 or more than CONTENT_DECODER_MAX_STACK. The
 * other functions take it as one decoder. */
content_decoder *content_decoder_new_stack(const int *codings, size_t count);
/* Decodes a chunk of the body, handing the decoded bytes to `sink` (at most 16 KiB at a time). */
int content_decoder_feed(content_decoder *decoder, const void *bytes, size_t count,
                         content_decoder_sink sink, void *context);
/* The body's end: OK when its stream ended exactly, else TRUNCATED (or the error seen before). */
int content_decoder_finish(content_decoder *decoder);
/* zlib's or brotli's words for a CORRUPT result (a static string; "" when none), of whichever
 * decoder of a stack failed. */
const char *content_decoder_detail(const content_decoder *decoder);
void content_decoder_free(content_decoder *decoder);

#endif
