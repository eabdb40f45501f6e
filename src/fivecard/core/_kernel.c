/* fivecard.core._kernel: the compiled execution of the evaluator's tables.
 *
 * Nothing here knows poker: every answer is a load from tables the Python
 * code builds (fivecard.core.lookup for five cards, fivecard.core.seven for
 * the best five of six or seven), handed over once as buffers. A Scorer does
 * what fivecard.core.lookup._five_strength_function and
 * fivecard.core.seven._best_strength_function do, one hand per call, for
 * many rows at once, and for every hand of a deck.
 *
 * Five cards: the sum of the cards' codes shifted right is the rank
 * multiset's key; the AND of the codes keeps a suit bit for a flush.
 * Six or seven: the rank multiset is walked as a state machine (trans: a
 * state and a symbol give the state one bigger; final: the best five's
 * strength of the multiset one bigger, as if no five were a flush), and the
 * suits that reach five with the wild cards add the best flush of their
 * ranks. A hand the tables do not hold (a card of no hand of the rules, a
 * rank more often than the deck holds it) is the best of its fives.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "_buffers.h"

#define MAX_CARDS 7
#define SUITS 4
#define WILD_SUIT 4 /* a wild card: in every suit */
#define NO_SUIT 5   /* a card of rank-only rules: in none */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    int best; /* 1: five to seven cards play their best five; 0: five cards */
    Py_ssize_t ncards;
    /* five cards */
    int32_t *codes;
    uint16_t *lookup;
    Py_ssize_t lookup_size;
    int32_t space, shift, mask;
    /* six and seven cards; symbols == 0: none (every five is tried) */
    int32_t symbols;
    int8_t *symbol;    /* card -> symbol, -1: no card of these rules */
    uint8_t *suit;     /* card -> 0-3, WILD_SUIT or NO_SUIT */
    uint16_t *rank_bit;
    int32_t *trans;
    uint16_t *final;
    Py_ssize_t states;
    uint16_t *flush; /* mask << 3 | wild cards */
    Py_ssize_t flush_size;
    uint32_t largest; /* the largest strength any table holds */
} Scorer;

/* the positions of every five of 5, 6 or 7 */
static uint8_t fives[3][21][5];
static int nfives[3];

static void make_fives(void) {
    for (int n = 5; n <= 7; n++) {
        int count = 0;
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                for (int c = b + 1; c < n; c++)
                    for (int d = c + 1; d < n; d++)
                        for (int e = d + 1; e < n; e++) {
                            uint8_t *f = fives[n - 5][count++];
                            f[0] = a; f[1] = b; f[2] = c; f[3] = d; f[4] = e;
                        }
        nfives[n - 5] = count;
    }
}

static inline uint32_t five(const Scorer *s, const int *c) {
    int64_t a = s->codes[c[0]], b = s->codes[c[1]], d = s->codes[c[2]], e = s->codes[c[3]], f = s->codes[c[4]];
    int64_t at = (a + b + d + e + f) >> s->shift;
    if (a & b & d & e & f & s->mask) at += s->space;
    return (at >= 0 && at < s->lookup_size) ? s->lookup[at] : 0;
}

/* the best of every five; strict: 0 when a five is no hand (as the batch
 * path says of a row holding a card of no hand of the rules, where the rules
 * have no state machine to say which cards those are) */
static uint32_t brute(const Scorer *s, const int *cards, int n, int strict) {
    uint32_t best = 0;
    int chosen[5];
    for (int i = 0; i < nfives[n - 5]; i++) {
        for (int j = 0; j < 5; j++) chosen[j] = cards[fives[n - 5][i][j]];
        uint32_t v = five(s, chosen);
        if (!v && strict) return 0;
        if (v > best) best = v;
    }
    return best;
}

/* the best flush of a hand (0 for none): each suit whose natural cards and
 * the wild cards make five */
static inline uint32_t flushes(const Scorer *s, const uint8_t *count, const uint16_t *mask, int wild) {
    uint32_t best = 0;
    for (int x = 0; x < SUITS; x++)
        if (count[x] + wild >= 5) {
            uint32_t v = s->flush[(Py_ssize_t)mask[x] << 3 | wild];
            if (v > best) best = v;
        }
    return best;
}

/* a hand the tables do not hold: the best of its fives; strict, 0 for one
 * holding a card of no hand of the rules (as the numpy path says), wherever
 * the card is in the hand */
static uint32_t fallback(const Scorer *s, const int *cards, int n, int strict) {
    if (strict)
        for (int i = 0; i < n; i++)
            if (s->symbol[cards[i]] < 0) return 0;
    return brute(s, cards, n, strict);
}

/* the strength of a hand of n valid card indices */
static uint32_t score(const Scorer *s, const int *cards, int n, int strict) {
    if (n == 5 || !s->symbols) return n == 5 ? five(s, cards) : brute(s, cards, n, strict);
    int32_t state = 0;
    uint8_t count[SUITS + 2] = {0};
    uint16_t mask[SUITS + 2] = {0};
    uint32_t made = 0;
    for (int i = 0; i < n; i++) {
        int c = cards[i], symbol = s->symbol[c];
        if (symbol < 0) return fallback(s, cards, n, strict);
        Py_ssize_t at = (Py_ssize_t)state * s->symbols + symbol;
        if (i == n - 1) {
            made = s->final[at];
        } else {
            state = s->trans[at];
            if (state < 0) return fallback(s, cards, n, strict);
        }
        count[s->suit[c]]++;
        mask[s->suit[c]] |= s->rank_bit[c];
    }
    if (!made) return fallback(s, cards, n, strict);
    uint32_t flush = flushes(s, count, mask, count[WILD_SUIT]);
    return flush > made ? flush : made;
}

/* --- one hand per call ------------------------------------------------------ */

/* a sequence's items as a tuple, or NULL (what: the TypeError's text): a
 * list's items, read one by one, could change under an item's __index__ */
static PyObject *items_of(PyObject *obj, const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq || PyTuple_CheckExact(seq)) return seq;
    PyObject *items = PyList_AsTuple(seq);
    Py_DECREF(seq);
    return items;
}

static int card_of(const Scorer *s, PyObject *item, int *out) {
    Py_ssize_t i;
    if (PyLong_CheckExact(item)) {
        i = PyLong_AsSsize_t(item);
        if (i == -1 && PyErr_Occurred()) { /* as a tuple says of an index past any */
            if (PyErr_ExceptionMatches(PyExc_OverflowError))
                PyErr_Format(PyExc_IndexError, "cannot fit 'int' into an index-sized integer");
            return -1;
        }
    } else {
        if (!PyIndex_Check(item)) {
            PyErr_Format(PyExc_TypeError, "tuple indices must be integers or slices, not %.200s",
                         Py_TYPE(item)->tp_name);
            return -1;
        }
        i = PyNumber_AsSsize_t(item, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) return -1;
    }
    if (i < 0) i += s->ncards; /* as a tuple reads a negative index */
    if (i < 0 || i >= s->ncards) {
        PyErr_SetString(PyExc_IndexError, "tuple index out of range");
        return -1;
    }
    *out = (int)i;
    return 0;
}

static PyObject *scorer_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Scorer *s = (Scorer *)self;
    if (PyVectorcall_NARGS(nargsf) != 1 || kwnames) {
        PyErr_SetString(PyExc_TypeError, "a scorer takes one argument: the hand's card indices");
        return NULL;
    }
    PyObject *hand = args[0];
    PyObject *seq = PySequence_Fast(hand, "the hand's card indices are a sequence");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 5 || n > (s->best ? 7 : 5)) {
        Py_DECREF(seq);
        if (n < 5) PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected %d, got %zd)", 5, n);
        else PyErr_Format(PyExc_ValueError, "too many values to unpack (expected %d)", 5);
        return NULL;
    }
    /* the items as they are now, each held: an item's __index__ may change a list */
    PyObject *items[MAX_CARDS];
    for (Py_ssize_t i = 0; i < n; i++) {
        items[i] = PySequence_Fast_GET_ITEM(seq, i);
        Py_INCREF(items[i]);
    }
    Py_DECREF(seq);
    int cards[MAX_CARDS], failed = 0;
    for (Py_ssize_t i = 0; i < n && !failed; i++) failed = card_of(s, items[i], &cards[i]) < 0;
    for (Py_ssize_t i = 0; i < n; i++) Py_DECREF(items[i]);
    if (failed) return NULL;
    return PyLong_FromUnsignedLong(score(s, cards, (int)n, 0));
}

/* --- many hands ------------------------------------------------------------- */

PyDoc_STRVAR(rows_doc, "rows(hands, out, k)\n--\n\n"
"The strength of each row of ``hands`` (int32 card indices, ``k`` a row,\n"
"each checked to be a card index) into ``out`` (uint16, one a row); 0 for\n"
"a row holding a card of no hand of the rules, as the numpy path says.");

static PyObject *scorer_rows(PyObject *self, PyObject *args) {
    Scorer *s = (Scorer *)self;
    PyObject *hands_obj, *out_obj;
    int k;
    if (!PyArg_ParseTuple(args, "OOi", &hands_obj, &out_obj, &k)) return NULL;
    if (k < 5 || k > (s->best ? 7 : 5)) return PyErr_Format(PyExc_ValueError, "rows of 5 to 7 cards, not %d", k);
    Py_buffer hands, out;
    if (buffer_items(hands_obj, &hands, PyBUF_SIMPLE, 4, -1, "hands") < 0) return NULL;
    if (buffer_items(out_obj, &out, PyBUF_WRITABLE, 2, -1, "out") < 0) {
        PyBuffer_Release(&hands);
        return NULL;
    }
    Py_ssize_t n = out.len / 2;
    if (hands.len != n * k * 4) {
        PyBuffer_Release(&hands);
        PyBuffer_Release(&out);
        return PyErr_Format(PyExc_ValueError, "hands: %zd rows of %d int32, not %zd bytes", n, k, hands.len);
    }
    const int32_t *in = hands.buf;
    uint16_t *result = out.buf;
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    int cards[MAX_CARDS];
    for (Py_ssize_t r = 0; r < n && !bad; r++) {
        for (int j = 0; j < k; j++) {
            int32_t c = in[r * k + j];
            if (c < 0 || c >= s->ncards) bad = 1;
            cards[j] = c;
        }
        if (!bad) result[r] = (uint16_t)score(s, cards, k, 1);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&hands);
    PyBuffer_Release(&out);
    if (bad) return PyErr_Format(PyExc_IndexError, "a number that is no card index");
    Py_RETURN_NONE;
}

/* --- every hand of a deck --------------------------------------------------- */

typedef struct {
    int32_t state;   /* the rank multiset so far */
    int64_t sum, all; /* five cards: the codes' sum and AND */
    uint8_t count[SUITS + 2];
    uint16_t mask[SUITS + 2];
} Prefix;

typedef struct {
    const Scorer *s;
    const uint8_t *deck;
    int n, k;
    uint64_t *counts; /* the caller's int64, added to modulo 2**64: defined for any count it holds */
    Py_ssize_t size;
    int cards[MAX_CARDS];
    /* per deck position: the card's symbol, suit and rank bit */
    int8_t symbol[256];
    uint8_t suit[256];
    uint16_t rank_bit[256];
} Walk;

static inline void advance(const Scorer *s, Prefix *p, int c) {
    int32_t code = s->codes[c];
    p->sum += code;
    p->all &= code;
    if (s->symbols) {
        if (p->state >= 0) p->state = s->trans[(Py_ssize_t)p->state * s->symbols + s->symbol[c]];
        p->count[s->suit[c]]++;
        p->mask[s->suit[c]] |= s->rank_bit[c];
    }
}

static inline void tally(Walk *w, uint32_t v) {
    if (v < (uint32_t)w->size) w->counts[v]++;
}

/* the last card of every hand that starts with the prefix */
static void last(Walk *w, const Prefix *p, int start) {
    const Scorer *s = w->s;
    const uint8_t *deck = w->deck;
    int n = w->n, k = w->k;
    if (k == 5) {
        for (int i = start; i < n; i++) {
            int64_t code = s->codes[deck[i]];
            int64_t at = (p->sum + code) >> s->shift;
            if (p->all & code & s->mask) at += s->space;
            tally(w, at >= 0 && at < s->lookup_size ? s->lookup[at] : 0);
        }
        return;
    }
    if (!s->symbols || p->state < 0) {
        for (int i = start; i < n; i++) {
            w->cards[k - 1] = deck[i];
            tally(w, score(s, w->cards, k, 1));
        }
        return;
    }
    const uint16_t *final = s->final + (Py_ssize_t)p->state * s->symbols;
    const int8_t *symbol = w->symbol;
    uint64_t *counts = w->counts;
    int wild = p->count[WILD_SUIT];
    /* for a natural card of suit u: the best flush of the other suits */
    uint16_t others[SUITS] = {0};
    int any = 0;
    for (int x = 0; x < SUITS; x++)
        if (p->count[x] + wild >= 4) any = 1;
    if (any)
        for (int u = 0; u < SUITS; u++)
            for (int x = 0; x < SUITS; x++)
                if (x != u && p->count[x] + wild >= 5) {
                    uint16_t v = s->flush[(Py_ssize_t)p->mask[x] << 3 | wild];
                    if (v > others[u]) others[u] = v;
                }
    if (!any) { /* no flush: one load a hand (every value is below the counts' size) */
        for (int i = start; i < n; i++) counts[final[symbol[i]]]++;
        return;
    }
    for (int i = start; i < n; i++) {
        uint32_t v = final[symbol[i]];
        int u = w->suit[i];
        if (u < SUITS) {
            if (p->count[u] + wild + 1 >= 5) {
                uint32_t f = s->flush[(Py_ssize_t)(p->mask[u] | w->rank_bit[i]) << 3 | wild];
                if (f > v) v = f;
            }
            if (others[u] > v) v = others[u];
        } else if (u == WILD_SUIT) {
            uint32_t f = flushes(s, p->count, p->mask, wild + 1);
            if (f > v) v = f;
        }
        counts[v]++;
    }
}

static void walk(Walk *w, const Prefix *p, int depth, int start) {
    if (depth == w->k - 1) {
        last(w, p, start);
        return;
    }
    for (int i = start; i <= w->n - (w->k - depth); i++) {
        Prefix q = *p;
        advance(w->s, &q, w->deck[i]);
        w->cards[depth] = w->deck[i];
        walk(w, &q, depth + 1, i + 1);
    }
}

PyDoc_STRVAR(count_doc, "count(deck, firsts, k, counts)\n--\n\n"
"Every hand of ``k`` (5-7) cards of ``deck`` (bytes of card indices, each a\n"
"card of these rules) whose first card is at one of the positions\n"
"``firsts``: ``counts[strength] += 1`` (int64, modulo 2**64: a count\n"
"another thread writes meanwhile wraps, never overflows). The GIL is\n"
"released.");

static PyObject *scorer_count(PyObject *self, PyObject *args) {
    Scorer *s = (Scorer *)self;
    PyObject *deck_obj, *firsts_obj, *counts_obj;
    int k;
    if (!PyArg_ParseTuple(args, "OOiO", &deck_obj, &firsts_obj, &k, &counts_obj)) return NULL;
    if (k < 5 || k > 7) return PyErr_Format(PyExc_ValueError, "hands of 5 to 7 cards, not %d", k);
    Py_buffer deck, counts;
    if (PyObject_GetBuffer(deck_obj, &deck, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    /* a copy, checked: another thread may write to the deck while this one counts */
    uint8_t cards[255];
    Py_ssize_t n = deck.len;
    if (n > 0 && n <= 255) memcpy(cards, deck.buf, n);
    PyBuffer_Release(&deck);
    if (n > 255) return PyErr_Format(PyExc_ValueError, "a deck of at most 255 cards, not %zd", n);
    for (Py_ssize_t i = 0; i < n; i++)
        if (cards[i] >= s->ncards || (s->symbols && s->symbol[cards[i]] < 0))
            return PyErr_Format(PyExc_IndexError, "%d is no card index of these rules", cards[i]);
    if (buffer_items(counts_obj, &counts, PyBUF_WRITABLE, 8, -1, "counts") < 0) return NULL;
    PyObject *firsts = items_of(firsts_obj, "firsts is a sequence of deck positions");
    if (!firsts) {
        PyBuffer_Release(&counts);
        return NULL;
    }
    Py_ssize_t m = PySequence_Fast_GET_SIZE(firsts);
    int *at = PyMem_Malloc(sizeof(int) * (m ? m : 1));
    int failed = at == NULL;
    for (Py_ssize_t i = 0; i < m && !failed; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(firsts, i));
        if (v == -1 && PyErr_Occurred()) failed = 1;
        else if (v < 0 || v >= n) {
            PyErr_Format(PyExc_IndexError, "%ld is no position in the deck", v);
            failed = 1;
        }
        else at[i] = (int)v;
    }
    Py_DECREF(firsts);
    if (failed) {
        if (!at) PyErr_NoMemory();
        PyMem_Free(at);
        PyBuffer_Release(&counts);
        return NULL;
    }
    if (counts.len / 8 <= s->largest) {
        PyMem_Free(at);
        PyBuffer_Release(&counts);
        return PyErr_Format(PyExc_ValueError, "counts: room for strengths up to %d", (int)s->largest);
    }
    Walk w = {.s = s, .deck = cards, .n = (int)n, .k = k, .counts = counts.buf, .size = counts.len / 8};
    for (int i = 0; i < w.n; i++) {
        w.symbol[i] = s->symbols ? s->symbol[cards[i]] : -1;
        w.suit[i] = s->symbols ? s->suit[cards[i]] : NO_SUIT;
        w.rank_bit[i] = s->symbols ? s->rank_bit[cards[i]] : 0;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < m; i++) {
        int first = at[i];
        if (first > w.n - k) continue;
        Prefix p = {.state = 0, .sum = 0, .all = -1};
        advance(s, &p, cards[first]);
        w.cards[0] = cards[first];
        walk(&w, &p, 1, first + 1);
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(at);
    PyBuffer_Release(&counts);
    Py_RETURN_NONE;
}

/* --- the type --------------------------------------------------------------- */

/* a copy of a table (checked once, and no one can change it after) */
static int take(PyObject *obj, Py_ssize_t itemsize, void **buf, Py_ssize_t *items, const char *what) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view.len % itemsize || view.len == 0) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_ValueError, "%s: items of %zd bytes", what, itemsize);
        return -1;
    }
    *buf = PyMem_Malloc(view.len);
    if (!*buf) {
        PyBuffer_Release(&view);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(*buf, view.buf, view.len);
    *items = view.len / itemsize;
    PyBuffer_Release(&view);
    return 0;
}

static void scorer_dealloc(PyObject *self) {
    Scorer *s = (Scorer *)self;
    PyMem_Free(s->lookup);
    PyMem_Free(s->trans);
    PyMem_Free(s->final);
    PyMem_Free(s->flush);
    PyMem_Free(s->codes);
    PyMem_Free(s->symbol);
    PyMem_Free(s->suit);
    PyMem_Free(s->rank_bit);
    Py_TYPE(self)->tp_free(self);
}

/* a sequence of ints, one per card, into a new C array */
static int per_card(PyObject *obj, Py_ssize_t ncards, long low, long high, void **out, size_t itemsize, const char *what) {
    PyObject *seq = items_of(obj, what);
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != ncards) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: one a card (%zd)", what, ncards);
        return -1;
    }
    *out = PyMem_Calloc(ncards, itemsize);
    if (!*out) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < ncards; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < low || v > high) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, v);
            return -1;
        }
        switch (itemsize) {
        case 1: ((uint8_t *)*out)[i] = (uint8_t)v; break;
        case 2: ((uint16_t *)*out)[i] = (uint16_t)v; break;
        default: ((int32_t *)*out)[i] = (int32_t)v;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *scorer_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"codes", "lookup", "space", "shift", "mask", "best", "symbols", "symbol", "suit",
                            "rank_bit", "trans", "final", "flush", NULL};
    PyObject *codes, *lookup, *symbol = Py_None, *suit = Py_None, *rank_bit = Py_None, *trans = Py_None,
             *final = Py_None, *flush = Py_None;
    int space, shift, mask, best = 0, symbols = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOiii|$piOOOOOO", names, &codes, &lookup, &space, &shift,
                                     &mask, &best, &symbols, &symbol, &suit, &rank_bit, &trans, &final, &flush))
        return NULL;
    if (shift < 0 || shift > 63) return PyErr_Format(PyExc_ValueError, "shift: %d is out of range", shift);
    if (symbols < 0 || symbols > INT8_MAX) return PyErr_Format(PyExc_ValueError, "symbols: %d is out of range", symbols);
    Scorer *s = (Scorer *)type->tp_alloc(type, 0);
    if (!s) return NULL;
    s->vectorcall = scorer_vectorcall;
    s->best = best;
    s->space = space;
    s->shift = shift;
    s->mask = mask;
    s->symbols = symbols;
    s->ncards = PySequence_Size(codes);
    if (s->ncards < 0 || s->ncards > 255) goto fail;
    if (per_card(codes, s->ncards, INT32_MIN, INT32_MAX, (void **)&s->codes, 4, "codes") < 0) goto fail;
    if (take(lookup, 2, (void **)&s->lookup, &s->lookup_size, "lookup") < 0) goto fail;
    if (symbols) {
        Py_ssize_t trans_size, final_size;
        if (per_card(symbol, s->ncards, -1, symbols - 1, (void **)&s->symbol, 1, "symbol") < 0) goto fail;
        if (per_card(suit, s->ncards, 0, NO_SUIT, (void **)&s->suit, 1, "suit") < 0) goto fail;
        if (per_card(rank_bit, s->ncards, 0, 0x1fff, (void **)&s->rank_bit, 2, "rank_bit") < 0) goto fail;
        if (take(trans, 4, (void **)&s->trans, &trans_size, "trans") < 0) goto fail;
        if (take(final, 2, (void **)&s->final, &final_size, "final") < 0) goto fail;
        if (take(flush, 2, (void **)&s->flush, &s->flush_size, "flush") < 0) goto fail;
        s->states = trans_size / symbols;
        if (trans_size != final_size || trans_size != s->states * symbols || s->flush_size != 8 << 13) {
            PyErr_SetString(PyExc_ValueError, "trans and final: one entry a state and symbol; flush: 8 << 13");
            goto fail;
        }
        for (Py_ssize_t i = 0; i < trans_size; i++)
            if (s->trans[i] >= s->states) {
                PyErr_SetString(PyExc_ValueError, "trans: a state past the table");
                goto fail;
            }
    }
    for (Py_ssize_t i = 0; i < s->lookup_size; i++)
        if (s->lookup[i] > s->largest) s->largest = s->lookup[i];
    if (symbols) {
        for (Py_ssize_t i = 0; i < s->states * symbols; i++)
            if (s->final[i] > s->largest) s->largest = s->final[i];
        for (Py_ssize_t i = 0; i < s->flush_size; i++)
            if (s->flush[i] > s->largest) s->largest = s->flush[i];
    }
    return (PyObject *)s;
fail:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "codes: one a card");
    Py_DECREF(s);
    return NULL;
}

static PyMethodDef scorer_methods[] = {
    {"rows", scorer_rows, METH_VARARGS, rows_doc},
    {"count", scorer_count, METH_VARARGS, count_doc},
    {NULL},
};

PyDoc_STRVAR(scorer_doc, "Scorer(codes, lookup, space, shift, mask, *, best=False, symbols=0, symbol=None,\n"
"       suit=None, rank_bit=None, trans=None, final=None, flush=None)\n--\n\n"
"A hand's card indices -> its strength, from a rule set's tables.");

static PyTypeObject ScorerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fivecard.core._kernel.Scorer",
    .tp_basicsize = sizeof(Scorer),
    .tp_dealloc = scorer_dealloc,
    .tp_vectorcall_offset = offsetof(Scorer, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = scorer_doc,
    .tp_methods = scorer_methods,
    .tp_new = scorer_new,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "fivecard.core._kernel",
    "The compiled execution of fivecard's evaluation tables.", -1, NULL,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    make_fives();
    if (PyType_Ready(&ScorerType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&ScorerType);
    if (PyModule_AddObject(m, "Scorer", (PyObject *)&ScorerType) < 0) {
        Py_DECREF(&ScorerType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
