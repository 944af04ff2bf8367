/* A small JSON reader for the C tests of the documents the library writes
 * (odesens_result_write): whether a text is one valid JSON value, and the
 * numbers or the string under a key of its top-level object. */
#ifndef ODESENS_TEST_JSON_READER_H
#define ODESENS_TEST_JSON_READER_H

#include <stddef.h>
#include <stdint.h>

/* 1 when `text` is exactly one JSON value (RFC 8259), white space around it
 * allowed; 0 otherwise. */
int json_valid(const char* text);

/* The numbers inside the value of the top-level object's member `key`, in
 * document order (nested arrays and objects flattened, null read as NaN):
 * their count, of which at most `max` are stored in `out`; -1 when `text`
 * is not valid JSON, not an object, or has no member `key`. */
int64_t json_numbers(const char* text, const char* key, double* out, int64_t max);

/* The string value of the top-level object's member `key` copied into
 * `out` (room for `size` bytes, escapes left as written): 1, or 0 when there
 * is no such member, it is not a string or does not fit. */
int json_string(const char* text, const char* key, char* out, size_t size);

#endif
