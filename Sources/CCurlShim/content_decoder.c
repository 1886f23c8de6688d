/* Streaming content decoding (gzip, deflate, br) for the Swift core: see content_decoder.h.
 * libcurl 7.88's own decoders return a body whose compressed stream stops early as a success
 * holding a prefix; these report it (content_decoder_finish), and decode every gzip member. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <brotli/decode.h>
#include "content_decoder.h"

#define HIDDEN __attribute__((visibility("hidden")))

enum { UNDECIDED, IN_STREAM, ENDED };

struct content_decoder {
    int coding;
    int state;
    int result;            /* sticky: the first error */
    int zlib_ready;
    z_stream z;
    BrotliDecoderState *br;
    unsigned members;      /* gzip members ended so far */
    size_t consumed;       /* body bytes fed */
    int has_pending;       /* deflate: the first byte, until the second tells zlib from raw */
    unsigned char pending;
    const char *detail;
    content_decoder *next; /* a stack: what this one decodes goes on to the next */
    unsigned char out[16384];
};

HIDDEN content_decoder *content_decoder_new(int coding) {
    if (coding != CONTENT_CODING_GZIP && coding != CONTENT_CODING_DEFLATE && coding != CONTENT_CODING_BR) return NULL;
    content_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->coding = coding;
    d->detail = "";
    if (coding == CONTENT_CODING_GZIP) {
        /* 15+32: gzip, or a zlib stream a server labels gzip (zlib's header detection). */
        if (inflateInit2(&d->z, 15 + 32) != Z_OK) { free(d); return NULL; }
        d->zlib_ready = 1;
        d->state = IN_STREAM;
    } else if (coding == CONTENT_CODING_BR) {
        d->br = BrotliDecoderCreateInstance(NULL, NULL, NULL);
        if (!d->br) { free(d); return NULL; }
        d->state = IN_STREAM;
    } else {
        d->state = UNDECIDED;
    }
    return d;
}

HIDDEN void content_decoder_free(content_decoder *d) {
    while (d) {
        content_decoder *next = d->next;
        if (d->zlib_ready) inflateEnd(&d->z);
        if (d->br) BrotliDecoderDestroyInstance(d->br);
        free(d);
        d = next;
    }
}

HIDDEN content_decoder *content_decoder_new_stack(const int *codings, size_t count) {
    if (!codings || count == 0 || count > CONTENT_DECODER_MAX_STACK) return NULL;
    content_decoder *first = NULL;
    /* The first applied is decoded last: built from it outwards. */
    for (size_t i = 0; i < count; i++) {
        content_decoder *d = content_decoder_new(codings[i]);
        if (!d) {
            content_decoder_free(first);
            return NULL;
        }
        d->next = first;
        first = d;
    }
    return first;
}

HIDDEN const char *content_decoder_detail(const content_decoder *d) {
    for (; d; d = d->next) {
        if (d->detail[0]) return d->detail;
    }
    return "";
}

static int fail(content_decoder *d, int result) {
    d->result = result;
    return result;
}

static int inflate_chunk(content_decoder *d, const unsigned char *bytes, size_t count,
                         content_decoder_sink sink, void *context) {
    d->z.next_in = (unsigned char *)bytes;
    d->z.avail_in = (uInt)count;
    for (;;) {
        if (d->state == ENDED) {
            if (d->z.avail_in == 0) return CONTENT_DECODER_OK;
            /* RFC 1952 §2.2: a gzip body is a series of members; any other coding has one stream. */
            if (d->coding != CONTENT_CODING_GZIP) return fail(d, CONTENT_DECODER_TRAILING);
            if (inflateReset2(&d->z, 15 + 16) != Z_OK) return fail(d, CONTENT_DECODER_CORRUPT);
            d->state = IN_STREAM;
        }
        d->z.next_out = d->out;
        d->z.avail_out = sizeof d->out;
        int status = inflate(&d->z, Z_NO_FLUSH);
        size_t produced = sizeof d->out - d->z.avail_out;
        if (produced > 0 && !sink(context, d->out, produced)) return fail(d, CONTENT_DECODER_STOPPED);
        if (status == Z_STREAM_END) {
            d->state = ENDED;
            d->members++;
            continue;
        }
        if (status == Z_OK || status == Z_BUF_ERROR) {
            /* Z_BUF_ERROR: no progress possible, which needs more input (none is left). */
            if (d->z.avail_in == 0 && d->z.avail_out != 0) return CONTENT_DECODER_OK;
            if (status == Z_BUF_ERROR) return fail(d, CONTENT_DECODER_CORRUPT);
            continue;
        }
        if (status == Z_MEM_ERROR) return fail(d, CONTENT_DECODER_NO_MEMORY);
        d->detail = d->z.msg ? d->z.msg : "";
        /* After a member, bytes that do not start another are no part of the body's gzip. */
        if (d->members > 0 && d->z.msg && (strcmp(d->z.msg, "incorrect header check") == 0
                                            || strcmp(d->z.msg, "unknown compression method") == 0)) {
            return fail(d, CONTENT_DECODER_TRAILING);
        }
        return fail(d, CONTENT_DECODER_CORRUPT);
    }
}

static int brotli_chunk(content_decoder *d, const unsigned char *bytes, size_t count,
                        content_decoder_sink sink, void *context) {
    const uint8_t *next_in = bytes;
    size_t avail_in = count;
    for (;;) {
        if (d->state == ENDED) return avail_in == 0 ? CONTENT_DECODER_OK : fail(d, CONTENT_DECODER_TRAILING);
        uint8_t *next_out = d->out;
        size_t avail_out = sizeof d->out;
        BrotliDecoderResult status = BrotliDecoderDecompressStream(d->br, &avail_in, &next_in, &avail_out, &next_out, NULL);
        size_t produced = sizeof d->out - avail_out;
        if (produced > 0 && !sink(context, d->out, produced)) return fail(d, CONTENT_DECODER_STOPPED);
        switch (status) {
        case BROTLI_DECODER_RESULT_SUCCESS: d->state = ENDED; break;
        case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: break;
        case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: return CONTENT_DECODER_OK;
        default:
            d->detail = BrotliDecoderErrorString(BrotliDecoderGetErrorCode(d->br));
            {
                BrotliDecoderErrorCode code = BrotliDecoderGetErrorCode(d->br);
                return fail(d, code <= BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES
                                   && code >= BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES
                               ? CONTENT_DECODER_NO_MEMORY : CONTENT_DECODER_CORRUPT);
            }
        }
    }
}

/* deflate: RFC 9110 says zlib-wrapped (RFC 1950), but some servers send raw deflate (RFC 1951);
 * browsers take both, telling them apart by the zlib header's check bits. */
static int start_deflate(content_decoder *d, unsigned char first, unsigned char second) {
    int wrapped = (first & 0x0f) == 8 && (first >> 4) <= 7 && ((first << 8) | second) % 31 == 0;
    if (inflateInit2(&d->z, wrapped ? 15 : -15) != Z_OK) return fail(d, CONTENT_DECODER_NO_MEMORY);
    d->zlib_ready = 1;
    d->state = IN_STREAM;
    return CONTENT_DECODER_OK;
}

/* A stack's link: one decoder's output fed to the next, whose failure ends the feed. */
struct relay {
    content_decoder *next;
    content_decoder_sink sink;
    void *context;
    int result;
};

static int relay_sink(void *context, const void *bytes, size_t count) {
    struct relay *relay = context;
    relay->result = content_decoder_feed(relay->next, bytes, count, relay->sink, relay->context);
    return relay->result == CONTENT_DECODER_OK;
}

static int feed_one(content_decoder *d, const void *bytes, size_t count, content_decoder_sink sink, void *context);

HIDDEN int content_decoder_feed(content_decoder *d, const void *bytes, size_t count,
                                content_decoder_sink sink, void *context) {
    if (!d->next) return feed_one(d, bytes, count, sink, context);
    if (d->result != CONTENT_DECODER_OK) return d->result;
    struct relay relay = { d->next, sink, context, CONTENT_DECODER_OK };
    int result = feed_one(d, bytes, count, relay_sink, &relay);
    /* Stopped by the next decoder: its result (the caller's sink stopping it included). */
    if (result == CONTENT_DECODER_STOPPED && relay.result != CONTENT_DECODER_OK) return fail(d, relay.result);
    return result;
}

static int feed_one(content_decoder *d, const void *bytes, size_t count, content_decoder_sink sink, void *context) {
    if (d->result != CONTENT_DECODER_OK) return d->result;
    if (count == 0) return CONTENT_DECODER_OK;
    const unsigned char *in = bytes;
    d->consumed += count;
    if (d->coding == CONTENT_CODING_BR) return brotli_chunk(d, in, count, sink, context);
    if (d->state == UNDECIDED) {
        if (!d->has_pending && count == 1) {
            d->pending = in[0];
            d->has_pending = 1;
            return CONTENT_DECODER_OK;
        }
        int started = d->has_pending ? start_deflate(d, d->pending, in[0]) : start_deflate(d, in[0], in[1]);
        if (started != CONTENT_DECODER_OK) return started;
        if (d->has_pending) {
            d->has_pending = 0;
            int result = inflate_chunk(d, &d->pending, 1, sink, context);
            if (result != CONTENT_DECODER_OK) return result;
        }
    }
    /* zlib counts in uInt: a larger chunk goes in pieces (libcurl's are far smaller). */
    while (count > 0) {
        size_t piece = count > (1u << 30) ? (1u << 30) : count;
        int result = inflate_chunk(d, in, piece, sink, context);
        if (result != CONTENT_DECODER_OK) return result;
        in += piece;
        count -= piece;
    }
    return CONTENT_DECODER_OK;
}

HIDDEN int content_decoder_finish(content_decoder *d) {
    for (; d; d = d->next) {
        if (d->result != CONTENT_DECODER_OK) return d->result;
        /* No body at all (HEAD, 204, 304, or an empty one): nothing was cut. */
        if (d->consumed == 0) continue;
        if (d->state != ENDED) return fail(d, CONTENT_DECODER_TRUNCATED);
    }
    return CONTENT_DECODER_OK;
}
