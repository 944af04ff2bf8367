#include "json_reader.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Where the reader is, and whether it counts the numbers it reads (and
 * stores the first `max` of them in `out`, when that is not NULL). */
typedef struct {
  const char* p;
  int collecting;
  double* out;
  int64_t max, count;
} Reader;

static int value(Reader* r, int depth);

static void skip_space(Reader* r) {
  while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r') ++r->p;
}

static int literal(Reader* r, const char* word) {
  const size_t n = strlen(word);
  if (strncmp(r->p, word, n) != 0) return 0;
  r->p += n;
  return 1;
}

static void collect(Reader* r, double v) {
  if (!r->collecting) return;
  if (r->out && r->count < r->max) r->out[r->count] = v;
  ++r->count;
}

/* A string; its contents from *start, `*length` bytes as written. */
static int string(Reader* r, const char** start, size_t* length) {
  if (*r->p != '"') return 0;
  const char* begin = ++r->p;
  while (*r->p != '"') {
    const unsigned char c = (unsigned char)*r->p;
    if (c == '\0' || c < 0x20) return 0;
    if (c == '\\') {
      ++r->p;
      if (*r->p == 'u') {
        for (int k = 1; k <= 4; ++k)
          if (!strchr("0123456789abcdefABCDEF", r->p[k]) || r->p[k] == '\0') return 0;
        r->p += 4;
      } else if (*r->p == '\0' || !strchr("\"\\/bfnrt", *r->p)) {
        return 0;
      }
    }
    ++r->p;
  }
  if (start) *start = begin;
  if (length) *length = (size_t)(r->p - begin);
  ++r->p;
  return 1;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int number(Reader* r) {
  const char* s = r->p;
  if (*s == '-') ++s;
  if (*s == '0') {
    ++s;
  } else if (*s >= '1' && *s <= '9') {
    while (*s >= '0' && *s <= '9') ++s;
  } else {
    return 0;
  }
  if (*s == '.') {
    if (!(*++s >= '0' && *s <= '9')) return 0;
    while (*s >= '0' && *s <= '9') ++s;
  }
  if (*s == 'e' || *s == 'E') {
    ++s;
    if (*s == '+' || *s == '-') ++s;
    if (!(*s >= '0' && *s <= '9')) return 0;
    while (*s >= '0' && *s <= '9') ++s;
  }
  collect(r, strtod(r->p, NULL));
  r->p = s;
  return 1;
}

/* The elements of an array or the members of an object, after its opening
 * bracket. */
static int elements(Reader* r, int depth, char close, int members) {
  skip_space(r);
  if (*r->p == close) {
    ++r->p;
    return 1;
  }
  for (;;) {
    skip_space(r);
    if (members) {
      if (!string(r, NULL, NULL)) return 0;
      skip_space(r);
      if (*r->p++ != ':') return 0;
    }
    if (!value(r, depth + 1)) return 0;
    skip_space(r);
    if (*r->p == close) {
      ++r->p;
      return 1;
    }
    if (*r->p++ != ',') return 0;
  }
}

static int value(Reader* r, int depth) {
  if (depth > 64) return 0;
  skip_space(r);
  switch (*r->p) {
    case '{': ++r->p; return elements(r, depth, '}', 1);
    case '[': ++r->p; return elements(r, depth, ']', 0);
    case '"': return string(r, NULL, NULL);
    case 't': return literal(r, "true");
    case 'f': return literal(r, "false");
    case 'n':
      if (!literal(r, "null")) return 0;
      collect(r, NAN);
      return 1;
    default: return number(r);
  }
}

int json_valid(const char* text) {
  Reader r = {text, 0, NULL, 0, 0};
  if (!value(&r, 0)) return 0;
  skip_space(&r);
  return *r.p == '\0';
}

/* Positions the reader at the value of the top-level member `key`. */
static int find_member(Reader* r, const char* key) {
  if (!json_valid(r->p)) return 0;
  skip_space(r);
  if (*r->p++ != '{') return 0;
  for (;;) {
    skip_space(r);
    const char* name = NULL;
    size_t length = 0;
    if (!string(r, &name, &length)) return 0;
    skip_space(r);
    ++r->p; /* ':' (the text is valid) */
    skip_space(r);
    if (length == strlen(key) && strncmp(name, key, length) == 0) return 1;
    if (!value(r, 1)) return 0;
    skip_space(r);
    if (*r->p++ != ',') return 0;
  }
}

int64_t json_numbers(const char* text, const char* key, double* out, int64_t max) {
  Reader r = {text, 0, NULL, 0, 0};
  if (!find_member(&r, key)) return -1;
  r.collecting = 1;
  r.out = out;
  r.max = max;
  if (!value(&r, 1)) return -1;
  return r.count;
}

int json_string(const char* text, const char* key, char* out, size_t size) {
  Reader r = {text, 0, NULL, 0, 0};
  if (!find_member(&r, key)) return 0;
  const char* start = NULL;
  size_t length = 0;
  if (!string(&r, &start, &length) || length + 1 > size) return 0;
  memcpy(out, start, length);
  out[length] = '\0';
  return 1;
}
