/* libFuzzer target: the streaming content decoders (Sources/CCurlShim/content_decoder.c) that
 * read every compressed answer a server sends.
 *
 * Byte 0 picks the coding (gzip, deflate, br) and the mode; byte 1 seeds the chunk sizes the body
 * is fed in (1 byte to 64 KiB, as libcurl's writes vary); the rest is the payload.
 *  - mode 0, hostile bytes: the payload is the body, for one coding or a stack of two. Beyond no
 *    crash, leak or UB: every result is one of the documented codes; after an error nothing more
 *    is decoded and each later call gives the same error; the sink never gets more than 16 KiB at
 *    once.
 *  - mode 1, round trip: the payload is compressed (gzip, zlib- or raw-wrapped deflate, br),
 *    maybe gzip-compressed again (a stack: "coding, gzip"), and the body decoded must be the
 *    payload exactly, with OK from every feed and from finish, in whatever chunks it arrives. A
 *    gzip body made of two members decodes to both.
 *  - mode 2, cut short: the compressed body less its last 1 to 8 bytes must not finish OK.
 *  - mode 3, trailing bytes: the compressed body and then four bytes that cannot start a gzip
 *    member must give TRAILING. */
#include <brotli/encode.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "content_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void violated(const char *what) {
    fprintf(stderr, "fuzz_content_decoder: property violated: %s\n", what);
    abort();
}

#define REQUIRE(cond, what) \
    do {                    \
        if (!(cond)) violated(what); \
    } while (0)

/* What the sink has received. */
typedef struct {
    unsigned char *bytes;
    size_t count, capacity;
    int calls_after_error;
} sink_state;

static int sink(void *context, const void *bytes, size_t count) {
    sink_state *s = context;
    REQUIRE(count > 0 && count <= 16384, "the sink gets 1 to 16 KiB at a time");
    if (s->count + count > s->capacity) {
        size_t capacity = (s->count + count) * 2;
        unsigned char *grown = realloc(s->bytes, capacity);
        REQUIRE(grown != NULL, "out of memory in the test");
        s->bytes = grown;
        s->capacity = capacity;
    }
    memcpy(s->bytes + s->count, bytes, count);
    s->count += count;
    return 1;
}

static int known_result(int result) { return result >= CONTENT_DECODER_OK && result <= CONTENT_DECODER_NO_MEMORY; }

/* Feeds body in chunks whose sizes come from seed; then finish. The first error is sticky. */
static int decode_stack(const int *codings, size_t count, const unsigned char *body, size_t size, unsigned seed,
                        sink_state *out) {
    content_decoder *decoder = count == 1 ? content_decoder_new(codings[0]) : content_decoder_new_stack(codings, count);
    REQUIRE(decoder != NULL, "a decoder for a known coding");
    int result = CONTENT_DECODER_OK;
    size_t at = 0;
    uint32_t state = seed * 2654435761u + 1;
    while (at < size) {
        state = state * 1103515245u + 12345u;
        size_t chunk = (state >> 16) % 4 == 0 ? 1 : 1 + (state >> 8) % 65536;
        if (chunk > size - at) chunk = size - at;
        size_t before = out->count;
        int fed = content_decoder_feed(decoder, body + at, chunk, sink, out);
        REQUIRE(known_result(fed), "feed returns a documented code");
        if (result != CONTENT_DECODER_OK) {
            REQUIRE(fed == result, "an error is sticky");
            REQUIRE(out->count == before, "nothing is decoded after an error");
        }
        if (fed != CONTENT_DECODER_OK && result == CONTENT_DECODER_OK) result = fed;
        at += chunk;
    }
    int finished = content_decoder_finish(decoder);
    REQUIRE(known_result(finished), "finish returns a documented code");
    if (result != CONTENT_DECODER_OK) REQUIRE(finished == result, "finish repeats the error");
    REQUIRE(content_decoder_detail(decoder) != NULL, "a detail string");
    content_decoder_free(decoder);
    return finished;
}

static int decode(int coding, const unsigned char *body, size_t size, unsigned seed, sink_state *out) {
    return decode_stack(&coding, 1, body, size, seed, out);
}

/* zlib with windowBits: 15 + 16 gzip, 15 zlib, -15 raw deflate. */
static unsigned char *deflated(const unsigned char *payload, size_t size, int window_bits, int level, size_t *out_size) {
    z_stream z;
    memset(&z, 0, sizeof z);
    REQUIRE(deflateInit2(&z, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) == Z_OK, "deflateInit2");
    size_t capacity = deflateBound(&z, size) + 16;
    unsigned char *body = malloc(capacity);
    REQUIRE(body != NULL, "out of memory in the test");
    z.next_in = (unsigned char *)payload;
    z.avail_in = (uInt)size;
    z.next_out = body;
    z.avail_out = (uInt)capacity;
    REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END, "deflate ends");
    *out_size = capacity - z.avail_out;
    deflateEnd(&z);
    return body;
}

static unsigned char *brotli(const unsigned char *payload, size_t size, int quality, size_t *out_size) {
    size_t capacity = BrotliEncoderMaxCompressedSize(size) + 16;
    unsigned char *body = malloc(capacity);
    REQUIRE(body != NULL, "out of memory in the test");
    *out_size = capacity;
    REQUIRE(BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, size, payload, out_size, body),
            "brotli compresses");
    return body;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    static const int codings[] = {CONTENT_CODING_GZIP, CONTENT_CODING_DEFLATE, CONTENT_CODING_BR};
    int coding = codings[(data[0] & 3) % 3];
    int mode = (data[0] >> 2) & 3;
    unsigned variant = data[0] >> 4;
    unsigned seed = data[1];
    const unsigned char *payload = data + 2;
    size_t payload_size = size - 2;
    sink_state out = {0};

    if (mode == 0) {
        int stack[2] = {codings[(variant >> 2) % 3], coding};
        if (variant & 2) decode_stack(stack, 2, payload, payload_size, seed, &out);
        else decode(coding, payload, payload_size, seed, &out);
        free(out.bytes);
        return 0;
    }

    /* A compressed body of the payload, and for gzip maybe a second member holding it again. */
    size_t body_size = 0;
    unsigned char *body;
    int two_members = coding == CONTENT_CODING_GZIP && (variant & 1);
    if (coding == CONTENT_CODING_BR) {
        body = brotli(payload, payload_size, (int)(variant % 12), &body_size);
    } else {
        int window_bits = coding == CONTENT_CODING_GZIP ? 15 + 16 : (variant & 1) ? -15 : 15;
        body = deflated(payload, payload_size, window_bits, (int)(variant % 10), &body_size);
        if (two_members) {
            size_t second_size;
            unsigned char *second = deflated(payload, payload_size, window_bits, 1, &second_size);
            unsigned char *both = realloc(body, body_size + second_size);
            REQUIRE(both != NULL, "out of memory in the test");
            memcpy(both + body_size, second, second_size);
            body = both;
            body_size += second_size;
            free(second);
        }
    }

    if (mode == 1) {
        int result;
        if (variant & 2) {
            int stack[2] = {coding, CONTENT_CODING_GZIP};
            size_t outer_size;
            unsigned char *outer = deflated(body, body_size, 15 + 16, 1, &outer_size);
            result = decode_stack(stack, 2, outer, outer_size, seed, &out);
            free(outer);
        } else {
            result = decode(coding, body, body_size, seed, &out);
        }
        REQUIRE(result == CONTENT_DECODER_OK, "a whole compressed body decodes");
        size_t expected = payload_size * (two_members ? 2 : 1);
        REQUIRE(out.count == expected, "the decoded size is the payload's");
        if (payload_size > 0) {
            REQUIRE(memcmp(out.bytes, payload, payload_size) == 0, "the decoded bytes are the payload");
            if (two_members) REQUIRE(memcmp(out.bytes + payload_size, payload, payload_size) == 0, "the second member too");
        }
    } else if (mode == 2) {
        size_t cut = 1 + seed % 8;
        if (cut < body_size) {
            int result = decode(coding, body, body_size - cut, seed, &out);
            REQUIRE(result != CONTENT_DECODER_OK, "a body cut short does not end OK");
        }
    } else {
        /* Trailing bytes that cannot start a gzip member (its first byte is 0x1f). */
        unsigned char trailing[4] = {(unsigned char)(seed == 0x1f ? 0 : seed), 'x', 'y', 'z'};
        unsigned char *longer = realloc(body, body_size + sizeof trailing);
        REQUIRE(longer != NULL, "out of memory in the test");
        body = longer;
        memcpy(body + body_size, trailing, sizeof trailing);
        int result = decode(coding, body, body_size + sizeof trailing, seed, &out);
        REQUIRE(result == CONTENT_DECODER_TRAILING, "trailing bytes are TRAILING");
    }
    free(body);
    free(out.bytes);
    return 0;
}
