/* fivecard.play._solver: the compiled execution of the pay-table solver's sums.
 *
 * Nothing here knows poker: it counts and adds over arrays the Python code
 * builds (fivecard.play.strategy), the numpy path being the other execution
 * of the same sums. Card sets are sets of deck positions numbered by the
 * combinatorial number system: the set c0 < c1 < ... is number
 * C(c0, 1) + C(c1, 2) + ..., so the sets of one size in that order (the
 * colexicographic order) are numbered 0, 1, 2, ...
 *
 * kinds:  the kind of every five-card set, in that order: each set's cards'
 *         codes summed and ANDed (the evaluator's one lookup index, as
 *         fivecard.core.lookup.lookup_index states it) give its strength,
 *         and the strength and its wild cards its kind, from tables.
 * fours:  from the kind of every five-card set (in that order), how many
 *         five-card sets of each kind hold each four-card set: the sets are
 *         walked in order, so that every set's four subsets lie in a few
 *         rows that the walk meets in turn (no random scatter).
 * fewer:  the same counts for the sets of one card fewer, from those of the
 *         sets of one card more: a set of s cards lies in 5 - s of the sets
 *         of s + 1 cards that any one five-card set holding it holds.
 * holds:  per deal, its 32 holds' pays gathered from those tables, made
 *         "these cards and none of the others" (a signed superset sum), and
 *         each hold's total pay and mean square pay over its draws: the best
 *         hold and the runner-up, ranked as fivecard.play.strategy ranks them,
 *         and the chosen holds' final hands by cards kept.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_buffers.h"

#define MAX_DECK 64 /* deck positions of a set fit these tables */
#define HOLDS 32
#define AHEAD 8 /* deals ahead whose sets are fetched */

/* C(x, j) for x up to MAX_DECK and j up to 6 */
static int64_t choose[MAX_DECK + 1][7];
/* per hold mask, how many cards it keeps, and its last card's place */
static int kept[HOLDS], last[HOLDS];

static void make_tables(void) {
    for (int x = 0; x <= MAX_DECK; x++) {
        choose[x][0] = 1;
        for (int j = 1; j <= 6; j++) choose[x][j] = x ? choose[x - 1][j - 1] + choose[x - 1][j] : 0;
    }
    for (int m = 0; m < HOLDS; m++) {
        kept[m] = __builtin_popcount((unsigned)m);
        last[m] = m ? 31 - __builtin_clz((unsigned)m) : -1;
    }
}

static int deck_and_kinds(int n, int kinds) {
    if (n < 5 || n > MAX_DECK) {
        PyErr_Format(PyExc_ValueError, "a deck of 5 to %d cards, not %d", MAX_DECK, n);
        return -1;
    }
    if (kinds < 1 || kinds > 255) {
        PyErr_Format(PyExc_ValueError, "1 to 255 kinds, not %d", kinds);
        return -1;
    }
    return 0;
}

/* --- the kind of every hand ----------------------------------------------------- */

PyDoc_STRVAR(kinds_doc, "kinds(codes, wild, lookup, shift, mask, space, entry, columns, out)\n--\n\n"
"``out`` (uint8, one per five-card set of the deck of ``len(codes)`` cards,\n"
"in number order) becomes each set's kind: its cards' ``codes`` (int32, one a\n"
"deck position) summed and shifted right by ``shift``, plus ``space`` where\n"
"their AND keeps a bit of ``mask``, index ``lookup`` (uint16) for a strength;\n"
"``entry`` (uint8, ``columns`` a strength) at that strength and the number of\n"
"its cards flagged in ``wild`` (uint8 per position), at most ``columns - 1``,\n"
"is the kind. The GIL is released.");

static PyObject *kinds(PyObject *self, PyObject *args) {
    PyObject *codes_obj, *wild_obj, *lookup_obj, *entry_obj, *out_obj;
    int shift, mask, space, columns;
    if (!PyArg_ParseTuple(args, "OOOiiiOiO", &codes_obj, &wild_obj, &lookup_obj, &shift, &mask, &space, &entry_obj,
                          &columns, &out_obj))
        return NULL;
    Py_buffer codes, wild, lookup, entry, out;
    if (buffer_items(codes_obj, &codes, PyBUF_SIMPLE, 4, -1, "codes") < 0) return NULL;
    int n = (int)(codes.len / 4);
    PyObject *result = NULL;
    int held = 1;
    if (n < 5 || n > MAX_DECK || columns < 1 || shift < 0 || shift > 31 || space < 0) {
        PyErr_Format(PyExc_ValueError, "a deck of 5 to %d cards, a column or more, a shift of 0 to 31", MAX_DECK);
        goto done;
    }
    if (buffer_items(wild_obj, &wild, PyBUF_SIMPLE, 1, n, "wild") < 0) goto done;
    held++;
    if (buffer_items(lookup_obj, &lookup, PyBUF_SIMPLE, 2, -1, "lookup") < 0) goto done;
    held++;
    if (buffer_items(entry_obj, &entry, PyBUF_SIMPLE, 1, -1, "entry") < 0) goto done;
    held++;
    if (buffer_items(out_obj, &out, PyBUF_WRITABLE, 1, choose[n][5], "out") < 0) goto done;
    held++;
    if (entry.len % columns) {
        PyErr_SetString(PyExc_ValueError, "entry: rows of columns");
        goto done;
    }
    if (buffer_apart(&out, "out", (const Py_buffer *const[]){&codes, &wild, &lookup, &entry}, 4) < 0) goto done;
    const int32_t *code = codes.buf;
    const uint8_t *flag = wild.buf, *row = entry.buf;
    const uint16_t *table = lookup.buf;
    uint8_t *kind = out.buf;
    const Py_ssize_t size = lookup.len / 2, strengths = entry.len / columns;
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    int64_t number = 0;
    for (int e = 4; e < n && !bad; e++)
        for (int d = 3; d < e; d++)
            for (int c = 2; c < d; c++)
                for (int b = 1; b < c; b++) {
                    /* int64: five int32 codes' sum cannot overflow it */
                    int64_t sum = (int64_t)code[b] + code[c] + code[d] + code[e];
                    int32_t all = code[b] & code[c] & code[d] & code[e];
                    int wilds = flag[b] + flag[c] + flag[d] + flag[e];
                    for (int a = 0; a < b; a++) {
                        int64_t at = ((sum + code[a]) >> shift) + (all & code[a] & mask ? space : 0);
                        Py_ssize_t strength = at >= 0 && at < size ? table[at] : 0;
                        int w = wilds + flag[a];
                        if (strength >= strengths) bad = 1;
                        else kind[number] = row[strength * columns + (w < columns ? w : columns - 1)];
                        number++;
                    }
                }
    Py_END_ALLOW_THREADS
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "entry: no row for a strength the lookup gives");
        goto done;
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    if (held > 4) PyBuffer_Release(&out);
    if (held > 3) PyBuffer_Release(&entry);
    if (held > 2) PyBuffer_Release(&lookup);
    if (held > 1) PyBuffer_Release(&wild);
    PyBuffer_Release(&codes);
    return result;
}

/* --- the four-card sets --------------------------------------------------------- */

PyDoc_STRVAR(fours_doc, "fours(top, n, kinds, out)\n--\n\n"
"``out`` (int32, C(n, 4) rows of ``kinds``) becomes, per four-card set of a\n"
"deck of ``n`` cards, how many five-card sets holding it are of each kind;\n"
"``top`` (uint8, one per five-card set, in number order) says each one's.\n"
"The GIL is released.");

static PyObject *fours(PyObject *self, PyObject *args) {
    PyObject *top_obj, *out_obj;
    int n, kinds;
    if (!PyArg_ParseTuple(args, "OiiO", &top_obj, &n, &kinds, &out_obj)) return NULL;
    if (deck_and_kinds(n, kinds) < 0) return NULL;
    Py_buffer top, out;
    if (buffer_items(top_obj, &top, PyBUF_SIMPLE, 1, choose[n][5], "top") < 0) return NULL;
    if (buffer_items(out_obj, &out, PyBUF_WRITABLE, 4, choose[n][4] * kinds, "out") < 0) {
        PyBuffer_Release(&top);
        return NULL;
    }
    if (buffer_apart(&out, "out", (const Py_buffer *const[]){&top}, 1) < 0) {
        PyBuffer_Release(&top);
        PyBuffer_Release(&out);
        return NULL;
    }
    const uint8_t *kind = top.buf;
    /* unsigned: another thread's writes to out may make its counts
     * anything, and their increments must still be defined */
    uint32_t *t = out.buf;
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    {
        memset(t, 0, out.len);
        const int64_t k = kinds;
        int64_t number = 0; /* the five-card set a, b, c, d, e */
        for (int e = 4; e < n; e++)
            for (int d = 3; d < e; d++)
                for (int c = 2; c < d; c++)
                    for (int b = 1; b < c; b++) {
                        /* each four-card subset's number, less C(a, 1) = a where a is in it */
                        uint32_t *no_a = t + (choose[b][1] + choose[c][2] + choose[d][3] + choose[e][4]) * k;
                        uint32_t *no_b = t + (choose[c][2] + choose[d][3] + choose[e][4]) * k;
                        uint32_t *no_c = t + (choose[b][2] + choose[d][3] + choose[e][4]) * k;
                        uint32_t *no_d = t + (choose[b][2] + choose[c][3] + choose[e][4]) * k;
                        uint32_t *no_e = t + (choose[b][2] + choose[c][3] + choose[d][4]) * k;
                        for (int a = 0; a < b; a++) {
                            /* checked where it is used: another thread may
                             * write to top while this one counts */
                            int x = kind[number++];
                            if (x >= kinds) {
                                bad = 1;
                                goto counted;
                            }
                            int64_t at = a * k + x;
                            no_a[x]++;
                            no_b[at]++;
                            no_c[at]++;
                            no_d[at]++;
                            no_e[at]++;
                        }
                    }
    }
counted:
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&top);
    PyBuffer_Release(&out);
    if (bad) return PyErr_Format(PyExc_ValueError, "top: a kind past %d", kinds - 1);
    Py_RETURN_NONE;
}

/* --- the smaller sets ------------------------------------------------------------ */

PyDoc_STRVAR(fewer_doc, "fewer(upper, n, kinds, size, out)\n--\n\n"
"``out`` (int32, C(n, size) rows of ``kinds``) becomes, per set of ``size``\n"
"cards (0-3), the sum over the sets of ``size + 1`` cards that hold it of\n"
"their rows of ``upper`` (int32, C(n, size + 1) rows), over 5 - size: from\n"
"the five-card sets of each kind holding each set of one card more, those\n"
"holding each set. The GIL is released.");

static PyObject *fewer(PyObject *self, PyObject *args) {
    PyObject *upper_obj, *out_obj;
    int n, kinds, size;
    if (!PyArg_ParseTuple(args, "OiiiO", &upper_obj, &n, &kinds, &size, &out_obj)) return NULL;
    if (deck_and_kinds(n, kinds) < 0) return NULL;
    if (size < 0 || size > 3) return PyErr_Format(PyExc_ValueError, "sets of 0 to 3 cards, not %d", size);
    Py_buffer upper, out;
    if (buffer_items(upper_obj, &upper, PyBUF_SIMPLE, 4, choose[n][size + 1] * kinds, "upper") < 0) return NULL;
    if (buffer_items(out_obj, &out, PyBUF_WRITABLE, 4, choose[n][size] * kinds, "out") < 0) {
        PyBuffer_Release(&upper);
        return NULL;
    }
    if (buffer_apart(&out, "out", (const Py_buffer *const[]){&upper}, 1) < 0) {
        PyBuffer_Release(&upper);
        PyBuffer_Release(&out);
        return NULL;
    }
    int64_t *sum = PyMem_Malloc(sizeof(int64_t) * kinds);
    if (!sum) {
        PyBuffer_Release(&upper);
        PyBuffer_Release(&out);
        return PyErr_NoMemory();
    }
    const int32_t *from = upper.buf;
    int32_t *to = out.buf;
    const int64_t k = kinds, share = 5 - size;
    int uneven = 0;
    Py_BEGIN_ALLOW_THREADS
    int u[4] = {0, 1, 2, 3}; /* the set, ascending; walked in number order */
    for (int64_t number = 0; number < choose[n][size]; number++) {
        /* below[p]: the terms of the cards before a card inserted at place p;
         * above[p]: those of the cards after it, each one place on */
        int64_t below[5], above[5];
        below[0] = 0;
        for (int p = 0; p < size; p++) below[p + 1] = below[p] + choose[u[p]][p + 1];
        above[size] = 0;
        for (int p = size - 1; p >= 0; p--) above[p] = above[p + 1] + choose[u[p]][p + 2];
        memset(sum, 0, sizeof(int64_t) * kinds);
        int p = 0;
        for (int x = 0; x < n; x++) {
            if (p < size && u[p] == x) {
                p++;
                continue;
            }
            const int32_t *row = from + (below[p] + choose[x][p + 1] + above[p]) * k;
            for (int j = 0; j < kinds; j++) sum[j] += row[j];
        }
        for (int j = 0; j < kinds; j++) {
            if (sum[j] % share) uneven = 1;
            to[number * k + j] = (int32_t)(sum[j] / share);
        }
        /* the next set in number order */
        int i = 0;
        while (i < size && u[i] + 1 == (i + 1 < size ? u[i + 1] : n)) i++;
        if (i < size) {
            u[i]++;
            for (int j = 0; j < i; j++) u[j] = j;
        }
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(sum);
    PyBuffer_Release(&upper);
    PyBuffer_Release(&out);
    if (uneven) return PyErr_Format(PyExc_ValueError, "upper: not the counts of five-card sets (a sum not a multiple of %d)",
                                    (int)share);
    Py_RETURN_NONE;
}

/* --- the holds of each deal ------------------------------------------------------ */

typedef struct {
    double value[HOLDS];     /* each hold's pays over its draws */
    const int64_t *squared;  /* each hold's squared pays */
    const int64_t *draws;
    int spread;              /* the ties' rule: 1 the lower mean square first, -1 the higher */
} Holds;

/* whether hold i ranks before hold j: the higher value, then the lower
 * signed mean square pay (worked out only for equal values), then more
 * cards kept, then the lower mask (the order of numpy's lexsort of
 * (-kept, spread * square, -value), from the same float divisions) */
static inline int before(const Holds *x, int i, int j) {
    if (x->value[i] != x->value[j]) return x->value[i] > x->value[j];
    double si = x->spread * ((double)x->squared[i] / (double)x->draws[i]);
    double sj = x->spread * ((double)x->squared[j] / (double)x->draws[j]);
    if (si != sj) return si < sj;
    if (kept[i] != kept[j]) return kept[i] > kept[j];
    return i < j;
}

/* a deal's five positions into c, read once; whether they are five
 * ascending positions of a deck of n cards (checked where they are used:
 * they index the tables, and another thread may write to the deals while
 * the kernel runs) */
static inline int load_deal(const int64_t *deal, int n, int64_t *c) {
    for (int j = 0; j < 5; j++) c[j] = deal[j];
    return c[0] >= 0 && c[0] < c[1] && c[1] < c[2] && c[2] < c[3] && c[3] < c[4] && c[4] < n;
}

/* the signed sum over each mask's supersets among the 32, in place: in
 * unsigned arithmetic (wrapping, defined), the exact sum wherever it fits,
 * as it does for counts (each a part of the one before) */
static inline void signed_supersets(int64_t *x) {
    for (int bit = 1; bit < HOLDS; bit <<= 1)
        for (int h = 0; h < HOLDS; h++)
            if (!(h & bit)) x[h] = (int64_t)((uint64_t)x[h] - (uint64_t)x[h | bit]);
}

/* the most a line pays (fivecard.play.paytables.MAX_PAY): a set's squared
 * pays, C(64, 5) hands at most, fit in int64 */
#define MAX_PAY 1000000
/* the most the deals' weights add up to: the final counts fit in int64 */
#define MAX_WEIGHT ((int64_t)1 << 32)

PyDoc_STRVAR(holds_doc, "holds(first, weight, tables, top, n, pays, draws, spread, best, value, second,\n"
"      second_value, final, values)\n--\n\n"
"Per deal (``first``: int64 rows of five ascending deck positions of a deck\n"
"of ``n`` cards), its 32 holds: the five-card sets holding each mask's cards\n"
"(``tables``: five int32 tables, of the sets of 0-4 cards, rows of one count\n"
"per kind of ``pays``; ``top``: uint8, the kind of each five-card set),\n"
"made those holding its cards and none of the deal's others; each hold's\n"
"value (their ``pays``, int64, added up over its ``draws``, int64 per mask)\n"
"and signed mean square pay (times ``spread``, 1 or -1). Writes each deal's\n"
"best mask and its value, the runner-up's (``best``, ``second``: int8;\n"
"``value``, ``second_value``: float64), adds the best hold's counts per\n"
"kind times the deal's ``weight`` (int64) to ``final`` (int64, 6 rows by\n"
"cards kept), and with ``values`` (float64, 32 a deal; or None) writes every\n"
"hold's value. The pays are summed per set first (the sums are linear: the\n"
"same integers as summing the counts per kind). The GIL is released; the\n"
"pays and draws are read from copies, each deal's positions and kind\n"
"checked where they are read. Refuses pays past\n"
"0-1,000,000, weights past 2**32 in all, tables whose rows are not counts of\n"
"the deck's hands, an output sharing memory with another argument.");

static PyObject *holds(PyObject *self, PyObject *args) {
    PyObject *first_obj, *weight_obj, *tables_obj, *top_obj, *pays_obj, *draws_obj, *best_obj, *value_obj, *second_obj,
        *second_value_obj, *final_obj, *values_obj;
    int n, spread;
    if (!PyArg_ParseTuple(args, "OOOOiOOiOOOOOO", &first_obj, &weight_obj, &tables_obj, &top_obj, &n, &pays_obj,
                          &draws_obj, &spread, &best_obj, &value_obj, &second_obj, &second_value_obj, &final_obj,
                          &values_obj))
        return NULL;
    if (spread != 1 && spread != -1) return PyErr_Format(PyExc_ValueError, "spread is 1 or -1, not %d", spread);
    if (n < 5 || n > MAX_DECK) return PyErr_Format(PyExc_ValueError, "a deck of 5 to %d cards, not %d", MAX_DECK, n);
    PyObject *tables_seq = PySequence_Fast(tables_obj, "tables: the five tables of the sets of 0-4 cards");
    if (!tables_seq) return NULL;
    enum { FIRST, WEIGHT, TOP, PAYS, DRAWS, BEST, VALUE, SECOND, SECOND_VALUE, FINAL, VALUES, T0 };
    Py_buffer b[T0 + 5];
    int held = 0; /* buffers taken so far (released on the way out) */
    int64_t *sums = NULL;
    int kinds = 0;
    Py_ssize_t m = 0;
    PyObject *result = NULL;
#define TAKE(obj, size, items, writable, what) \
    do { \
        if (buffer_items((obj), &b[held], (writable) ? PyBUF_WRITABLE : PyBUF_SIMPLE, (size), (items), (what)) < 0) goto done; \
        held++; \
    } while (0)
    if (PySequence_Fast_GET_SIZE(tables_seq) != 5) {
        PyErr_SetString(PyExc_ValueError, "tables: the five tables of the sets of 0-4 cards");
        goto done;
    }
    TAKE(first_obj, 8, -1, 0, "first");
    if (b[FIRST].len % 40) {
        PyErr_SetString(PyExc_ValueError, "first: rows of 5 int64");
        goto done;
    }
    m = b[FIRST].len / 40;
    TAKE(weight_obj, 8, m, 0, "weight");
    TAKE(top_obj, 1, choose[n][5], 0, "top");
    TAKE(pays_obj, 8, -1, 0, "pays");
    kinds = (int)(b[PAYS].len / 8);
    if (deck_and_kinds(n, kinds) < 0) goto done;
    TAKE(draws_obj, 8, HOLDS, 0, "draws");
    TAKE(best_obj, 1, m, 1, "best");
    TAKE(value_obj, 8, m, 1, "value");
    TAKE(second_obj, 1, m, 1, "second");
    TAKE(second_value_obj, 8, m, 1, "second_value");
    TAKE(final_obj, 8, 6 * kinds, 1, "final");
    if (values_obj != Py_None) TAKE(values_obj, 8, m * HOLDS, 1, "values");
    else {
        b[held].buf = NULL;
        b[held].obj = NULL;
        b[held].len = 0;
        held++;
    }
    for (int s = 0; s < 5; s++) TAKE(PySequence_Fast_GET_ITEM(tables_seq, s), 4, choose[n][s] * kinds, 0, "tables");
    {
        static const char *const outputs[] = {"best", "value", "second", "second_value", "final", "values"};
        const Py_buffer *all[T0 + 5];
        for (int i = 0; i < T0 + 5; i++) all[i] = &b[i];
        for (int i = BEST; i <= VALUES; i++)
            if (buffer_apart(&b[i], outputs[i - BEST], all, T0 + 5) < 0) goto done;
    }
    /* copies of the pays and draws, checked (against an overflow, a
     * division by 0): another thread may write to the arrays meanwhile */
    int64_t pay[256], draw[HOLDS];
    memcpy(pay, b[PAYS].buf, sizeof(int64_t) * kinds);
    memcpy(draw, b[DRAWS].buf, sizeof draw);
    for (int j = 0; j < kinds; j++)
        if (pay[j] < 0 || pay[j] > MAX_PAY) {
            PyErr_Format(PyExc_ValueError, "pays: each 0 to %d", MAX_PAY);
            goto done;
        }
    for (int h = 0; h < HOLDS; h++)
        if (draw[h] <= 0) {
            PyErr_SetString(PyExc_ValueError, "draws: one a hold, each above 0");
            goto done;
        }
    /* the deals and weights checked here (an error before any output is
     * written), the deals again where they are read */
    const int64_t *first = b[FIRST].buf, *weight = b[WEIGHT].buf;
    int64_t weights = 0;
    for (Py_ssize_t r = 0; r < m; r++) {
        int64_t c[5];
        if (!load_deal(first + r * 5, n, c)) {
            PyErr_Format(PyExc_ValueError, "first: row %zd is not five ascending positions of a deck of %d cards", r, n);
            goto done;
        }
        if (weight[r] < 0 || (weights += weight[r]) > MAX_WEIGHT) {
            PyErr_SetString(PyExc_ValueError, "weight: each 0 or more, at most 2**32 in all");
            goto done;
        }
    }
    const uint8_t *top = b[TOP].buf;
    int8_t *best = b[BEST].buf, *second = b[SECOND].buf;
    double *value = b[VALUE].buf, *second_value = b[SECOND_VALUE].buf, *values = b[VALUES].buf;
    const int32_t *table[5];
    for (int s = 0; s < 5; s++) table[s] = b[T0 + s].buf;
    for (Py_ssize_t i = 0; i < choose[n][5]; i++)
        if (top[i] >= kinds) {
            PyErr_Format(PyExc_ValueError, "top: a kind past %d", kinds - 1);
            goto done;
        }
    /* per set of 0-4 cards, its pays and its squared pays summed over its
     * five-card sets: two numbers a set in place of a row of counts; then
     * the final hands of the best holds by cards kept and kind */
    Py_ssize_t sets = 0, at[5];
    for (int s = 0; s < 5; s++) {
        at[s] = sets;
        sets += choose[n][s];
    }
    sums = PyMem_Malloc(sizeof(int64_t) * (2 * (size_t)sets + 6 * (size_t)kinds));
    if (!sums) {
        PyErr_NoMemory();
        goto done;
    }
    uint64_t *made = (uint64_t *)sums + 2 * sets;
    memset(made, 0, sizeof(uint64_t) * 6 * kinds);
    Py_ssize_t wrong = -1; /* a set whose row is no counts of hands */
    int changed = 0;       /* a kind past the kinds, met where it is read */
    Py_BEGIN_ALLOW_THREADS
    const int64_t k = kinds;
    for (int s = 0; s < 5 && wrong < 0; s++) {
        /* a set of s cards is held by C(n - s, 5 - s) hands, each of one
         * kind: rows of counts that add up to that, each count at most
         * it, whose pays and squared pays fit in int64 */
        const int64_t hands = choose[n - s][5 - s];
        for (int64_t u = 0; u < choose[n][s]; u++) {
            const int32_t *row = table[s] + u * k;
            /* unsigned (wrapping, defined) until the row is known to be counts */
            uint64_t paid = 0, squared = 0;
            int64_t total = 0;
            int32_t sign = 0;
            for (int j = 0; j < kinds; j++) {
                int32_t count = row[j];
                sign |= count;
                total += count;
                paid += (uint64_t)(int64_t)count * (uint64_t)pay[j];
                squared += (uint64_t)(int64_t)count * (uint64_t)(pay[j] * pay[j]);
            }
            if (sign < 0 || total != hands) {
                wrong = at[s] + u;
                break;
            }
            sums[2 * (at[s] + u)] = (int64_t)paid;
            sums[2 * (at[s] + u) + 1] = (int64_t)squared;
        }
    }
    for (Py_ssize_t r = 0; r < m && wrong < 0 && !changed; r++) {
        int64_t c[5], d[5];
        if (!load_deal(first + r * 5, n, c)) {
            changed = 1;
            break;
        }
        if (r + AHEAD < m && load_deal(first + (r + AHEAD) * 5, n, d)) {
            /* a deal further on: its kind and its four-card sets' pays and
             * counts (the tables' largest, far apart) fetched meanwhile */
            int64_t low = 0, high = choose[d[1]][1] + choose[d[2]][2] + choose[d[3]][3] + choose[d[4]][4];
            __builtin_prefetch(top + choose[d[0]][1] + choose[d[1]][2] + choose[d[2]][3] + choose[d[3]][4] + choose[d[4]][5]);
            for (int j = 0; j < 5; j++) {
                if (j) {
                    high -= choose[d[j]][j];
                    low += choose[d[j - 1]][j];
                }
                __builtin_prefetch(sums + 2 * (at[4] + low + high));
                const int32_t *row = table[4] + (low + high) * k;
                __builtin_prefetch(row);
                __builtin_prefetch(row + k - 1);
            }
        }
        /* each mask's set number: the mask without its last card's, and that card's term */
        int64_t number[HOLDS];
        number[0] = 0;
        for (int h = 1; h < HOLDS; h++) number[h] = number[h & ~(1 << last[h])] + choose[c[last[h]]][kept[h]];
        /* the pays of the hands holding each mask's cards, then of those
         * holding them and none of the deal's others */
        int64_t paid[HOLDS], squared[HOLDS];
        for (int h = 0; h < HOLDS - 1; h++) {
            const int64_t *sum = sums + 2 * (at[kept[h]] + number[h]);
            paid[h] = sum[0];
            squared[h] = sum[1];
        }
        int kind = top[number[HOLDS - 1]]; /* checked where it is read, as the deal */
        if (kind >= kinds) {
            changed = 1;
            break;
        }
        int64_t whole = pay[kind];
        paid[HOLDS - 1] = whole;
        squared[HOLDS - 1] = whole * whole;
        signed_supersets(paid);
        signed_supersets(squared);
        Holds x = {.squared = squared, .draws = draw, .spread = spread};
        for (int h = 0; h < HOLDS; h++) x.value[h] = (double)paid[h] / (double)draw[h];
        int one = 0, two = 1;
        if (before(&x, 1, 0)) {
            one = 1;
            two = 0;
        }
        for (int h = 2; h < HOLDS; h++) {
            if (before(&x, h, one)) {
                two = one;
                one = h;
            } else if (before(&x, h, two)) {
                two = h;
            }
        }
        best[r] = (int8_t)one;
        value[r] = x.value[one];
        second[r] = (int8_t)two;
        second_value[r] = x.value[two];
        if (values) memcpy(values + r * HOLDS, x.value, sizeof(x.value));
        /* the best hold's final hands per kind: the signed sum over its
         * supersets (unsigned: the tables read again may have changed) */
        uint64_t *by_kept = made + kept[one] * k;
        uint64_t w = (uint64_t)weight[r]; /* (read again: the sums below are unsigned) */
        for (int h = one; h < HOLDS; h = (h + 1) | one) {
            uint64_t sign = (kept[h] - kept[one]) & 1 ? -w : w;
            if (h == HOLDS - 1) {
                by_kept[kind] += sign;
            } else {
                const int32_t *row = table[kept[h]] + number[h] * k;
                for (int j = 0; j < kinds; j++) by_kept[j] += sign * (uint64_t)(int64_t)row[j];
            }
        }
    }
    Py_END_ALLOW_THREADS
    if (wrong >= 0) {
        PyErr_Format(PyExc_ValueError, "tables: set %zd's row is not the counts of the hands of a deck of %d cards that "
                     "hold it", wrong, n);
        goto done;
    }
    if (changed) {
        PyErr_SetString(PyExc_ValueError, "first or top changed during the call: a deal or a kind out of range");
        goto done;
    }
    /* added to final only if every sum fits */
    int64_t *final = b[FINAL].buf, added[6 * 255];
    for (int i = 0; i < 6 * kinds; i++)
        if (__builtin_add_overflow(final[i], (int64_t)made[i], &added[i])) {
            PyErr_SetString(PyExc_ValueError, "final: a count past int64");
            goto done;
        }
    memcpy(final, added, sizeof(int64_t) * 6 * kinds);
    Py_INCREF(Py_None);
    result = Py_None;
done:
#undef TAKE
    PyMem_Free(sums);
    for (int i = 0; i < held; i++)
        if (b[i].obj) PyBuffer_Release(&b[i]);
    Py_DECREF(tables_seq);
    return result;
}

/* --- the module ------------------------------------------------------------------ */

static PyMethodDef methods[] = {
    {"kinds", kinds, METH_VARARGS, kinds_doc},
    {"fours", fours, METH_VARARGS, fours_doc},
    {"fewer", fewer, METH_VARARGS, fewer_doc},
    {"holds", holds, METH_VARARGS, holds_doc},
    {NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "fivecard.play._solver",
    "The compiled execution of the pay-table solver's sums.", -1, methods,
};

PyMODINIT_FUNC PyInit__solver(void) {
    make_tables();
    return PyModule_Create(&module);
}
