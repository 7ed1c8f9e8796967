/* analyzer.engine._native: the compiled evaluation kernel (the Python side is
 * analyzer/engine/native.py, which builds what this module evaluates; docs/speed.md).
 *
 * A kernel, not a second engine: it evaluates the compiled tables the Python path builds
 * (analyzer/engine/table.py), with the same definitions as analyzer/engine/evaluate.py's
 * reference implementations -- the value compositions' weights on a shoe (values.weights), a
 * table's value part, its rows' S / D(R), the weight program of its label part
 * (algebra.evaluate_scalar) and its leaves -- for several tables laid side by side as one plan.
 *
 * Exact by proof, never by luck: every count of a shoe of N cards (a column's count, a row's
 * S, D(R), a weight) is a number of ordered draws of at most six distinct cards, at most
 * N**6.  The kernel computes in the ring of integers modulo 2**64 when N**6 < 2**63 (N <= 1,448:
 * algebra.fits_int64, the bound the numpy path relies on), modulo 2**128 when N**6 < 2**127
 * (N <= 2,097,151 here), and refuses larger shoes (the Python integers of the pure path
 * take them).  Additions, subtractions and products modulo 2**b are exact for any result
 * whose true value lies in the signed b-bit range, whatever the intermediate values; the one
 * division, S / D(R), divides exact counts (see _native_eval.h).
 *
 * Types:  ShoeState(ranks, cards, tier)  a shoe's counts, pool sizes and (on first use)
 *                                        its 7,722 composition weights;
 *         Plan(spec)                     index arrays of one or more tables (native.plan_spec);
 *         Plan.counts(state, out=None)   every column's count: into ``out`` (a writable int64
 *                                        buffer, modulo 2**64 only) or as a list of ints, and
 *                                        each table's total;
 *         Plan.many(counts, out, w=None) every column's count on many shoes of the 64-bit ring
 *                                        (a batch: native.batch_plan), and their value weights;
 *         Settled(index, scaled, keys)   a bet settled over a table's columns (pricing.Settlement);
 *         Settled.summary(counts)        its sums per pay line and moments, or None past int64
 *                                        counts or 128-bit moments (overflow checked).
 * Functions: init(compositions, pools, rank_values) once, from the Python definitions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef int64_t i64;
typedef uint64_t u64;
typedef int32_t i32;
#ifdef __SIZEOF_INT128__
#define HAVE_INT128 1
typedef unsigned __int128 u128;
typedef __int128 s128;
#endif

#define MAXC 6
#define MIN_CARDS 4 /* a value composition holds 4 to 6 cards */
#define NVAL 10
#define NRANK 13
#define NCARD 52
/* the largest shoe of each ring: N**6 < 2**63, N**6 < 2**127 */
#define MAX_SIZE_64 1448
#define MAX_SIZE_128 2097151
#define BIG ((i64)1 << 31) /* past every index (int32) */

/* -- the shared definitions, set once by init() ------------------------------------------- */

static int ready = 0;
static Py_ssize_t n_comp;            /* value compositions (7,722) */
static unsigned char *comp_cards;    /* cards of each */
static i32 *comp_low, *comp_high;    /* the index of its low half (values 0-4) and high half (5-9) */
static i32 *comp_padded_low;         /* the index of its low half in the padded rows: (cards - 4) x n_low + low */
static Py_ssize_t n_low, n_high;
static unsigned char *low_mult, *high_mult; /* the multiplicities of each distinct half (5 each) */
static Py_ssize_t n_pool;
static i32 *pool_card_start, *pool_cards; /* each pool's cards (4 x rank + suit) */
static i32 *pool_rank_start, *pool_ranks; /* each pool's ranks, for a pool that needs no suits */
static unsigned char *pool_suited;        /* 1: the pool needs the suits of the cards */
static int rank_value[NRANK];

/* -- helpers ------------------------------------------------------------------------------- */

/* A sequence of Python ints into a new C array of i64 (range-checked: OverflowError). */
static int to_i64(PyObject *seq, const char *what, i64 **out, Py_ssize_t *n)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    i64 *arr = PyMem_Malloc(sizeof(i64) * (len ? len : 1));
    if (!arr) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < len; i++) {
        long long x = PyLong_AsLongLong(items[i]);
        if (x == -1 && PyErr_Occurred()) {
            PyMem_Free(arr);
            Py_DECREF(fast);
            return -1;
        }
        arr[i] = x;
    }
    Py_DECREF(fast);
    *out = arr;
    if (n)
        *n = len;
    return 0;
}

/* The same into i32, each in [low, high). */
static int to_i32(PyObject *seq, const char *what, i32 **out, Py_ssize_t *n, i64 low, i64 high)
{
    i64 *wide;
    Py_ssize_t len;
    if (to_i64(seq, what, &wide, &len) < 0)
        return -1;
    i32 *arr = PyMem_Malloc(sizeof(i32) * (len ? len : 1));
    if (!arr) {
        PyMem_Free(wide);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        if (wide[i] < low || wide[i] >= high) {
            PyErr_Format(PyExc_ValueError, "%s: entry %zd is %lld, outside [%lld, %lld)", what, i,
                         (long long)wide[i], (long long)low, (long long)high);
            PyMem_Free(arr);
            PyMem_Free(wide);
            return -1;
        }
        arr[i] = (i32)wide[i];
    }
    PyMem_Free(wide);
    *out = arr;
    if (n)
        *n = len;
    return 0;
}

/* A CSR index (starts of each run, of length count + 1, non-decreasing, from 0 to entries). */
static int check_starts(const i32 *starts, Py_ssize_t count, Py_ssize_t entries, const char *what)
{
    if (starts[0] != 0 || starts[count] != entries) {
        PyErr_Format(PyExc_ValueError, "%s: runs do not cover the entries", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++)
        if (starts[i] > starts[i + 1]) {
            PyErr_Format(PyExc_ValueError, "%s: runs out of order", what);
            return -1;
        }
    return 0;
}

/* -- init ----------------------------------------------------------------------------------- */

/* The index of a half's multiplicities (five values, each 0-7) among the distinct ones met so
 * far, added when new; ``seen`` maps the half's code (base 8) to its index + 1. */
static int half_index(unsigned char **table, Py_ssize_t *count, const unsigned char m[5], i32 *seen)
{
    int code = m[0] | m[1] << 3 | m[2] << 6 | m[3] << 9 | m[4] << 12;
    if (seen[code])
        return seen[code] - 1;
    unsigned char *grown = PyMem_Realloc(*table, 5 * (*count + 1));
    if (!grown) {
        PyErr_NoMemory();
        return -1;
    }
    *table = grown;
    memcpy(grown + 5 * *count, m, 5);
    seen[code] = (i32)(*count + 1);
    return (int)(*count)++;
}

/* init(compositions, pools, rank_values): compositions a sequence of (cards, multiset code:
 * sum of 8**value) in values.COMPOSITIONS order; pools a sequence of (card members, rank members
 * or None when the pool needs suits) in algebra.POOLS order; rank_values the point value of
 * each of the 13 ranks.  Once per process (later calls are ignored). */
static PyObject *native_init(PyObject *self, PyObject *args)
{
    PyObject *comps, *pools, *values;
    if (!PyArg_ParseTuple(args, "OOO", &comps, &pools, &values))
        return NULL;
    if (ready)
        Py_RETURN_NONE;
    i64 *rv;
    Py_ssize_t nr;
    if (to_i64(values, "rank values", &rv, &nr) < 0)
        return NULL;
    if (nr != NRANK) {
        PyMem_Free(rv);
        return PyErr_Format(PyExc_ValueError, "13 rank values expected");
    }
    for (int r = 0; r < NRANK; r++) {
        if (rv[r] < 0 || rv[r] >= NVAL) {
            PyMem_Free(rv);
            return PyErr_Format(PyExc_ValueError, "bad rank value");
        }
        rank_value[r] = (int)rv[r];
    }
    PyMem_Free(rv);

    PyObject *fast = PySequence_Fast(comps, "compositions");
    if (!fast)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    comp_cards = PyMem_Malloc(n ? n : 1);
    comp_low = PyMem_Malloc(sizeof(i32) * (n ? n : 1));
    comp_high = PyMem_Malloc(sizeof(i32) * (n ? n : 1));
    low_mult = high_mult = NULL;
    n_low = n_high = 0;
    i32 *seen_low = PyMem_Calloc(1 << 15, sizeof(i32)), *seen_high = PyMem_Calloc(1 << 15, sizeof(i32));
    if (!comp_cards || !comp_low || !comp_high || !seen_low || !seen_high) {
        PyMem_Free(seen_low);
        PyMem_Free(seen_high);
        Py_DECREF(fast);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t c = 0; c < n; c++) {
        long long k, code;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, c), "LL", &k, &code))
            goto init_fail;
        if (k < MIN_CARDS || k > MAXC || code < 0) {
            PyErr_SetString(PyExc_ValueError, "bad composition");
            goto init_fail;
        }
        unsigned char m[NVAL];
        int total = 0;
        for (int v = 0; v < NVAL; v++) {
            m[v] = (unsigned char)((code >> (3 * v)) & 7);
            total += m[v];
        }
        if (total != k) {
            PyErr_SetString(PyExc_ValueError, "a composition's code does not hold its cards");
            goto init_fail;
        }
        comp_cards[c] = (unsigned char)k;
        int lo = half_index(&low_mult, &n_low, m, seen_low), hi = half_index(&high_mult, &n_high, m + 5, seen_high);
        if (lo < 0 || hi < 0)
            goto init_fail;
        comp_low[c] = lo;
        comp_high[c] = hi;
    }
    PyMem_Free(seen_low);
    PyMem_Free(seen_high);
    Py_DECREF(fast);
    n_comp = n;
    comp_padded_low = PyMem_Malloc(sizeof(i32) * (n ? n : 1));
    if (!comp_padded_low)
        return PyErr_NoMemory();
    for (Py_ssize_t c = 0; c < n; c++)
        comp_padded_low[c] = (i32)((comp_cards[c] - MIN_CARDS) * n_low + comp_low[c]);

    fast = PySequence_Fast(pools, "pools");
    if (!fast)
        return NULL;
    n = PySequence_Fast_GET_SIZE(fast);
    pool_card_start = PyMem_Malloc(sizeof(i32) * (n + 1));
    pool_rank_start = PyMem_Malloc(sizeof(i32) * (n + 1));
    pool_suited = PyMem_Malloc(n ? n : 1);
    pool_cards = PyMem_Malloc(sizeof(i32) * (NCARD * n + 1));
    pool_ranks = PyMem_Malloc(sizeof(i32) * (NRANK * n + 1));
    if (!pool_card_start || !pool_rank_start || !pool_suited || !pool_cards || !pool_ranks) {
        Py_DECREF(fast);
        return PyErr_NoMemory();
    }
    pool_card_start[0] = pool_rank_start[0] = 0;
    for (Py_ssize_t p = 0; p < n; p++) {
        PyObject *cards, *ranks;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, p), "OO", &cards, &ranks)) {
            Py_DECREF(fast);
            return NULL;
        }
        i32 *members;
        Py_ssize_t count;
        if (to_i32(cards, "pool cards", &members, &count, 0, NCARD) < 0) {
            Py_DECREF(fast);
            return NULL;
        }
        if (count > NCARD) {
            PyMem_Free(members);
            Py_DECREF(fast);
            return PyErr_Format(PyExc_ValueError, "a pool of more than 52 cards");
        }
        memcpy(pool_cards + pool_card_start[p], members, sizeof(i32) * count);
        pool_card_start[p + 1] = pool_card_start[p] + (i32)count;
        PyMem_Free(members);
        pool_suited[p] = ranks == Py_None;
        count = 0;
        if (ranks != Py_None) {
            if (to_i32(ranks, "pool ranks", &members, &count, 0, NRANK) < 0) {
                Py_DECREF(fast);
                return NULL;
            }
            if (count > NRANK) {
                PyMem_Free(members);
                Py_DECREF(fast);
                return PyErr_Format(PyExc_ValueError, "a pool of more than 13 ranks");
            }
            memcpy(pool_ranks + pool_rank_start[p], members, sizeof(i32) * count);
            PyMem_Free(members);
        }
        pool_rank_start[p + 1] = pool_rank_start[p] + (i32)count;
    }
    Py_DECREF(fast);
    n_pool = n;
    ready = 1;
    Py_RETURN_NONE;
init_fail:
    PyMem_Free(seen_low);
    PyMem_Free(seen_high);
    Py_DECREF(fast);
    return NULL;
}

/* -- ShoeState ------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    int tier; /* 64 or 128: the ring */
    int suited;
    i64 size;
    i64 values[NVAL];
    i64 *pools;
    u64 falls64[NVAL][MAXC + 1], pads64[MAXC + 1];
    u64 *w64;
#ifdef HAVE_INT128
    u128 falls128[NVAL][MAXC + 1], pads128[MAXC + 1];
    u128 *w128;
#endif
} ShoeStateObject;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n_tables, n_cols, n_rows, n_falls, n_subterms, n_factors, n_comps, n_terms, n_leaves;
    int needs_suits;
    i32 *col_start;                              /* each table's first column, and the end */
    i32 *value_start, *value_comp;               /* per column: its value entries */
    i64 *value_tally;
    i32 *row_start, *row_comp;                   /* per row: its compositions and tallies */
    i64 *row_tally;
    unsigned char *row_read;                     /* per row: its read values' multiplicities (10) */
    i64 *row_coef;                               /* per row: S / D(R) = coef x padding number ... */
    i32 *row_pad;                                /* ... row_pad (0-13, see _native_eval.h), or -1: summed */
    i32 *fall_pool, *fall_m;                     /* falling(pool size - shift, m) */
    i64 *fall_shift;
    i32 *sub_start, *sub_fall;                   /* a subterm: a product of falls */
    i32 *sub_order, *sub_packed;                 /* the subterms by their number of falls (1, 2, 3, */
    Py_ssize_t sub_count[4];                     /* more): each one's index, the falls of those of 1-3 */
    i32 *fac_start, *fac_sub;                    /* a factor: a sum of subterms, times its multiplier */
    i64 *fac_mult;
    i32 *comp_start;                             /* a composition: a sum of terms */
    i32 *term_start, *term_factor, *term_cards;  /* a term: multiplicity x padding x factors */
    i64 *term_mult;
    i32 *leaf_row, *leaf_comp, *leaf_col, *leaf_rest;
    i64 *leaf_mult;
    /* derived from the above by plan_new, for the evaluation (see shared_products, leaf_groups) */
    Py_ssize_t n_nodes, n_sum_rows, n_groups, room;
    i32 *node_left, *node_right, *term_ref;      /* products of factors shared by the terms */
    i32 *sum_rows;                               /* the rows whose S / D(R) is summed */
    i32 *group_start, *group_src, *group_cards, *group_col, *group_rest;
    i32 *group_ref;                              /* each group's entries: a value of the products, */
    u64 *group_coef_64;                          /* and its coefficient (see leaf_groups) */
#ifdef HAVE_INT128
    u128 *group_coef_128;
#endif
} PlanObject;

static PyTypeObject ShoeStateType, PlanType;

static i64 ring_limit(int tier) { return tier == 64 ? MAX_SIZE_64 : MAX_SIZE_128; }

/* Every pool's size from a shoe's 13 rank counts r and its 52 card counts c (rank-major), or
 * c NULL when the suits are unknown: then a pool that needs suits is 0 (never read). */
static void shoe_pools(const i64 *r, const i64 *c, i64 *pools)
{
    for (Py_ssize_t p = 0; p < n_pool; p++) {
        i64 x = 0;
        if (c)
            for (i32 j = pool_card_start[p]; j < pool_card_start[p + 1]; j++)
                x += c[pool_cards[j]];
        else if (!pool_suited[p])
            for (i32 j = pool_rank_start[p]; j < pool_rank_start[p + 1]; j++)
                x += r[pool_ranks[j]];
        pools[p] = x;
    }
}

/* ShoeState(ranks, cards, tier): 13 rank counts, 52 card counts (rank-major) or None, and the
 * ring (64, or 128 where the compiler has it); ValueError for a bad count, OverflowError for a
 * shoe too large for the ring. */
static PyObject *state_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"ranks", "cards", "tier", NULL};
    PyObject *ranks, *cards;
    int tier;
    if (!ready)
        return PyErr_Format(PyExc_RuntimeError, "the kernel is not initialised");
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOi", names, &ranks, &cards, &tier))
        return NULL;
#ifdef HAVE_INT128
    if (tier != 64 && tier != 128)
#else
    if (tier != 64)
#endif
        return PyErr_Format(PyExc_ValueError, "no ring of %d bits", tier);
    i64 *r, *c = NULL;
    Py_ssize_t nr, nc = 0;
    if (to_i64(ranks, "ranks", &r, &nr) < 0)
        return NULL;
    if (cards != Py_None && to_i64(cards, "cards", &c, &nc) < 0) {
        PyMem_Free(r);
        return NULL;
    }
    ShoeStateObject *s = NULL;
    if (nr != NRANK || (c && nc != NCARD)) {
        PyErr_SetString(PyExc_ValueError, "13 rank counts and 52 card counts (or None) expected");
        goto done;
    }
    i64 size = 0;
    for (int k = 0; k < NRANK; k++) {
        if (r[k] < 0 || r[k] > MAX_SIZE_128) {
            PyErr_SetString(PyExc_OverflowError, "a count outside the kernel's range");
            goto done;
        }
        size += r[k];
        if (c) {
            i64 sum = 0;
            for (int j = 0; j < 4; j++) {
                if (c[4 * k + j] < 0) {
                    PyErr_SetString(PyExc_ValueError, "a negative card count");
                    goto done;
                }
                sum += c[4 * k + j];
            }
            if (sum != r[k]) {
                PyErr_SetString(PyExc_ValueError, "card counts that disagree with the rank counts");
                goto done;
            }
        }
    }
    if (size > ring_limit(tier)) {
        PyErr_Format(PyExc_OverflowError, "a shoe of %lld cards is past the %d-bit ring", (long long)size, tier);
        goto done;
    }
    s = (ShoeStateObject *)type->tp_alloc(type, 0);
    if (!s)
        goto done;
    s->tier = tier;
    s->suited = c != NULL;
    s->size = size;
    s->w64 = NULL;
#ifdef HAVE_INT128
    s->w128 = NULL;
#endif
    s->pools = PyMem_Malloc(sizeof(i64) * (n_pool ? n_pool : 1));
    if (!s->pools) {
        Py_CLEAR(s);
        PyErr_NoMemory();
        goto done;
    }
    memset(s->values, 0, sizeof s->values);
    for (int k = 0; k < NRANK; k++)
        s->values[rank_value[k]] += r[k];
    shoe_pools(r, c, s->pools);
done:
    PyMem_Free(r);
    PyMem_Free(c);
    return (PyObject *)s;
}

static void state_dealloc(ShoeStateObject *s)
{
    PyMem_Free(s->pools);
    PyMem_Free(s->w64);
#ifdef HAVE_INT128
    PyMem_Free(s->w128);
#endif
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *state_size(ShoeStateObject *s, void *closure) { return PyLong_FromLongLong(s->size); }
static PyObject *state_tier(ShoeStateObject *s, void *closure) { return PyLong_FromLong(s->tier); }

static PyGetSetDef state_getset[] = {
    {"size", (getter)state_size, NULL, "cards in the shoe", NULL},
    {"tier", (getter)state_tier, NULL, "the bits of the ring the shoe is counted in (64 or 128)", NULL},
    {NULL},
};


/* -- the plan's derived layout ------------------------------------------------------------------ */

/* qsort's context (plan_new holds the GIL: one sort at a time) */
static const i32 *sort_start, *sort_items;
static const i64 *sort_keys;

/* Terms by their factors (as reordered by shared_products), lexicographically; a prefix first. */
static int compare_terms(const void *a, const void *b)
{
    i32 x = *(const i32 *)a, y = *(const i32 *)b;
    i32 i = sort_start[x], j = sort_start[y];
    for (; i < sort_start[x + 1] && j < sort_start[y + 1]; i++, j++)
        if (sort_items[i] != sort_items[j])
            return sort_items[i] < sort_items[j] ? -1 : 1;
    i32 left = sort_start[x + 1] - i, right = sort_start[y + 1] - j;
    return left != right ? (left < right ? -1 : 1) : (x < y ? -1 : x > y);
}

/* Entries by their group (source, column, rest, cards), then their value (sort_keys: 5 an entry). */
static int compare_entries(const void *a, const void *b)
{
    i32 x = *(const i32 *)a, y = *(const i32 *)b;
    for (int k = 0; k < 5; k++)
        if (sort_keys[5 * x + k] != sort_keys[5 * y + k])
            return sort_keys[5 * x + k] < sort_keys[5 * y + k] ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* The products of the terms' factors, shared: each term's factors ordered by how many terms
 * use them (most first), the terms sorted by those lists, and each distinct prefix of two
 * factors or more one node, the product of its parent prefix and its last factor (a trie: on
 * the catalogue's label parts, about 32,000 products where the terms have 103,000 factors).
 * The evaluation's values are laid out as [factors, 1, nodes]: node i is value
 * n_factors + 1 + i, node_left[i] x node_right[i] (values before it); term_ref[t] is the value
 * of term t's whole product (n_factors, the 1, for a term without factors).  The ring's
 * multiplication is commutative and associative, so any grouping gives the same product. */
static int shared_products(PlanObject *p)
{
    Py_ssize_t nt = p->n_terms, nf = p->n_factors, refs = nt ? p->term_start[nt] : 0;
    int status = -1;
    i64 *freq = PyMem_Calloc(nf + 1, sizeof(i64));
    i32 *items = PyMem_Malloc(sizeof(i32) * (refs + 1)), *order = PyMem_Malloc(sizeof(i32) * (nt + 1));
    i32 *path = PyMem_Malloc(sizeof(i32) * (refs + 1));
    p->node_left = PyMem_Malloc(sizeof(i32) * (refs + 1));
    p->node_right = PyMem_Malloc(sizeof(i32) * (refs + 1));
    p->term_ref = PyMem_Malloc(sizeof(i32) * (nt + 1));
    if (!freq || !items || !order || !path || !p->node_left || !p->node_right || !p->term_ref) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < refs; k++)
        freq[p->term_factor[k]]++;
    for (Py_ssize_t t = 0; t < nt; t++) { /* an insertion sort: most used first, then by index */
        order[t] = (i32)t;
        for (i32 k = p->term_start[t]; k < p->term_start[t + 1]; k++) {
            i32 f = p->term_factor[k], j = k;
            while (j > p->term_start[t] &&
                   (freq[items[j - 1]] < freq[f] || (freq[items[j - 1]] == freq[f] && items[j - 1] > f))) {
                items[j] = items[j - 1];
                j--;
            }
            items[j] = f;
        }
    }
    sort_start = p->term_start;
    sort_items = items;
    if (nt)
        qsort(order, nt, sizeof(i32), compare_terms);
    Py_ssize_t nodes = 0;
    i32 prev = -1;
    for (Py_ssize_t k = 0; k < nt; k++) {
        i32 t = order[k], start = p->term_start[t], len = p->term_start[t + 1] - start;
        i32 common = 0; /* the prefix shared with the previous term, whose path is still in place */
        if (prev >= 0) {
            i32 plen = p->term_start[prev + 1] - p->term_start[prev];
            while (common < len && common < plen && items[start + common] == items[p->term_start[prev] + common])
                common++;
        }
        for (i32 d = common; d < len; d++) {
            if (d == 0) {
                path[0] = items[start];
                continue;
            }
            p->node_left[nodes] = path[d - 1];
            p->node_right[nodes] = items[start + d];
            path[d] = (i32)(nf + 1 + nodes++);
        }
        p->term_ref[t] = len ? path[len - 1] : (i32)nf;
        prev = t;
    }
    if (nf + 1 + nodes >= BIG) {
        PyErr_NoMemory();
        goto done;
    }
    p->n_nodes = nodes;
    status = 0;
done:
    PyMem_Free(freq);
    PyMem_Free(items);
    PyMem_Free(order);
    PyMem_Free(path);
    return status;
}

/* The leaves and their compositions' terms as one sum per group of a multiplier and a pair of
 * columns.  A leaf counts S / D(R) x multiplicity x N(leaf) for its column and takes it back
 * from its row's rest, and N(leaf) is the sum of its composition's terms, multiplicity x
 * padding x a product of factors (a value of shared_products).  Where S / D(R) is a constant
 * times a padding (row_pad >= 0) the constant joins the coefficient, and a row whose S / D(R)
 * is summed (row_pad -1) is its own multiplier; so a group is a multiplier (group_src: 0-13 the
 * paddings, 14 + k the k-th summed row of sum_rows), a term's padding (group_cards, its cards:
 * 0 none), a column and a rest, and its entries are (coefficient: row constant x leaf
 * multiplicity x term multiplicity, the value of a product), equal products merged and in the
 * order of the values (memory read in order).  The group's sum of coefficient x value, times
 * its multiplier and padding, is added to its column and taken back from its rest once.
 * Coefficients are the ring's: modulo 2**64 and 2**128, each computed in its ring. */
static int leaf_groups(PlanObject *p)
{
    Py_ssize_t nl = p->n_leaves, ne = 0;
    for (Py_ssize_t l = 0; l < nl; l++)
        ne += p->comp_start[p->leaf_comp[l] + 1] - p->comp_start[p->leaf_comp[l]];
    if (ne >= BIG) {
        PyErr_NoMemory();
        return -1;
    }
    int status = -1;
    i32 *summed = PyMem_Malloc(sizeof(i32) * (p->n_rows + 1)), *order = PyMem_Malloc(sizeof(i32) * (ne + 1));
    i64 *keys = PyMem_Malloc(sizeof(i64) * (5 * ne + 1));
    u64 *coef64 = PyMem_Malloc(sizeof(u64) * (ne + 1));
    p->sum_rows = PyMem_Malloc(sizeof(i32) * (p->n_rows + 1));
    p->group_start = PyMem_Malloc(sizeof(i32) * (ne + 2));
    p->group_src = PyMem_Malloc(sizeof(i32) * (ne + 1));
    p->group_cards = PyMem_Malloc(sizeof(i32) * (ne + 1));
    p->group_col = PyMem_Malloc(sizeof(i32) * (ne + 1));
    p->group_rest = PyMem_Malloc(sizeof(i32) * (ne + 1));
    p->group_ref = PyMem_Malloc(sizeof(i32) * (ne + 1));
    p->group_coef_64 = PyMem_Malloc(sizeof(u64) * (ne + 1));
#ifdef HAVE_INT128
    u128 *coef128 = PyMem_Malloc(sizeof(u128) * (ne + 1));
    p->group_coef_128 = PyMem_Malloc(sizeof(u128) * (ne + 1));
    if (!coef128 || !p->group_coef_128) {
        PyErr_NoMemory();
        goto done;
    }
#endif
    if (!summed || !order || !keys || !coef64 || !p->sum_rows || !p->group_start || !p->group_src ||
        !p->group_cards || !p->group_col || !p->group_rest || !p->group_ref || !p->group_coef_64) {
        PyErr_NoMemory();
        goto done;
    }
    p->n_sum_rows = 0;
    for (Py_ssize_t r = 0; r < p->n_rows; r++) {
        summed[r] = -1;
        if (p->row_pad[r] < 0) {
            summed[r] = (i32)p->n_sum_rows;
            p->sum_rows[p->n_sum_rows++] = (i32)r;
        }
    }
    Py_ssize_t e = 0;
    for (Py_ssize_t l = 0; l < nl; l++) {
        i32 r = p->leaf_row[l], c = p->leaf_comp[l];
        i64 src = p->row_pad[r] >= 0 ? p->row_pad[r] : 2 * (MAXC + 1) + summed[r];
        i64 k = p->row_pad[r] >= 0 ? p->row_coef[r] : 1, m = p->leaf_mult[l];
        for (i32 t = p->comp_start[c]; t < p->comp_start[c + 1]; t++, e++) {
            order[e] = (i32)e;
            keys[5 * e] = src;
            keys[5 * e + 1] = p->term_cards[t];
            keys[5 * e + 2] = p->leaf_col[l];
            keys[5 * e + 3] = p->leaf_rest[l];
            keys[5 * e + 4] = p->term_ref[t];
            coef64[e] = (u64)k * (u64)m * (u64)p->term_mult[t]; /* modulo 2**64 */
#ifdef HAVE_INT128
            coef128[e] = (u128)((s128)k * (s128)m) * (u128)(s128)p->term_mult[t]; /* modulo 2**128 */
#endif
        }
    }
    sort_keys = keys;
    if (ne)
        qsort(order, ne, sizeof(i32), compare_entries);
    Py_ssize_t groups = 0, kept = 0;
    for (Py_ssize_t k = 0; k < ne; k++) {
        i32 x = order[k], before = k ? order[k - 1] : 0;
        if (k && !memcmp(keys + 5 * x, keys + 5 * before, 5 * sizeof(i64))) { /* one product: merged */
            p->group_coef_64[kept - 1] += coef64[x];
#ifdef HAVE_INT128
            p->group_coef_128[kept - 1] += coef128[x];
#endif
            continue;
        }
        if (!k || memcmp(keys + 5 * x, keys + 5 * before, 4 * sizeof(i64))) {
            p->group_start[groups] = (i32)kept;
            p->group_src[groups] = (i32)keys[5 * x];
            p->group_cards[groups] = (i32)keys[5 * x + 1];
            p->group_col[groups] = (i32)keys[5 * x + 2];
            p->group_rest[groups] = (i32)keys[5 * x + 3];
            groups++;
        }
        p->group_ref[kept] = (i32)keys[5 * x + 4];
        p->group_coef_64[kept] = coef64[x];
#ifdef HAVE_INT128
        p->group_coef_128[kept] = coef128[x];
#endif
        kept++;
    }
    p->group_start[groups] = (i32)kept;
    p->n_groups = groups;
    status = 0;
done:
    PyMem_Free(summed);
    PyMem_Free(order);
    PyMem_Free(keys);
    PyMem_Free(coef64);
#ifdef HAVE_INT128
    PyMem_Free(coef128);
#endif
    return status;
}

/* -- the two rings ---------------------------------------------------------------------------- */

#define T u64
#define ST i64
#define FN(name) name##_64
#include "_native_eval.h"
#undef T
#undef ST
#undef FN

#ifdef HAVE_INT128
#define T u128
#define ST s128
#define FN(name) name##_128
#include "_native_eval.h"
#undef T
#undef ST
#undef FN

/* A value of the 128-bit ring, read as signed, as a Python int. */
static PyObject *int128_to_py(u128 x)
{
    s128 v = (s128)x;
    if (v >= INT64_MIN && v <= INT64_MAX)
        return PyLong_FromLongLong((long long)v);
    int negative = v < 0;
    u128 mag = negative ? (u128)0 - x : x;
    PyObject *hi = PyLong_FromUnsignedLongLong((unsigned long long)(mag >> 64));
    PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)mag);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *out = NULL, *up = NULL;
    if (hi && lo && shift && (up = PyNumber_Lshift(hi, shift)))
        out = PyNumber_Or(up, lo);
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_XDECREF(shift);
    Py_XDECREF(up);
    if (out && negative) {
        PyObject *neg = PyNumber_Negative(out);
        Py_DECREF(out);
        out = neg;
    }
    return out;
}
#endif

/* The shoe's weights in its ring, computed on first use. */
static int state_weights(ShoeStateObject *s)
{
    if (s->tier == 64) {
        if (s->w64)
            return 0;
        u64 *w = PyMem_Malloc(sizeof(u64) * (n_comp + (MAXC + 1 - MIN_CARDS) * n_low + n_high + 1));
        if (!w) {
            PyErr_NoMemory();
            return -1;
        }
        shoe_tables_64(s->values, s->size, s->falls64, s->pads64);
        weights_64(s->falls64, s->pads64, w, w + n_comp);
        s->w64 = w;
        return 0;
    }
#ifdef HAVE_INT128
    if (s->w128)
        return 0;
    u128 *w = PyMem_Malloc(sizeof(u128) * (n_comp + (MAXC + 1 - MIN_CARDS) * n_low + n_high + 1));
    if (!w) {
        PyErr_NoMemory();
        return -1;
    }
    shoe_tables_128(s->values, s->size, s->falls128, s->pads128);
    weights_128(s->falls128, s->pads128, w, w + n_comp);
    s->w128 = w;
    return 0;
#else
    PyErr_SetString(PyExc_RuntimeError, "no 128-bit ring");
    return -1;
#endif
}

static PyTypeObject ShoeStateType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "analyzer.engine._native.ShoeState",
    .tp_doc = "A shoe as the kernel counts it: ShoeState(ranks, cards or None, tier).",
    .tp_basicsize = sizeof(ShoeStateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = state_new,
    .tp_dealloc = (destructor)state_dealloc,
    .tp_getset = state_getset,
};

/* -- Plan ---------------------------------------------------------------------------------------- */

static void plan_free_arrays(PlanObject *p)
{
    void *arrays[] = {p->col_start, p->value_start, p->value_comp, p->value_tally, p->row_start,
                      p->row_comp, p->row_tally, p->row_read, p->row_coef, p->row_pad, p->fall_pool, p->fall_m, p->fall_shift,
                      p->sub_start, p->sub_fall, p->sub_order, p->sub_packed, p->fac_start, p->fac_sub, p->fac_mult, p->comp_start,
                      p->term_start, p->term_factor, p->term_cards, p->term_mult, p->leaf_row,
                      p->leaf_comp, p->leaf_col, p->leaf_rest, p->leaf_mult, p->node_left, p->node_right,
                      p->term_ref, p->sum_rows, p->group_start, p->group_src, p->group_cards, p->group_col,
                      p->group_rest, p->group_ref, p->group_coef_64,
#ifdef HAVE_INT128
                      p->group_coef_128,
#endif
    };
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        PyMem_Free(arrays[i]);
}

static void plan_dealloc(PlanObject *p)
{
    plan_free_arrays(p);
    Py_TYPE(p)->tp_free((PyObject *)p);
}

/* The value parts of the plan's tables, one (value_col, value_comp, value_tally) each, columns
 * counted from the table's first (each table's entries sorted by column, as compiled), into
 * one run of entries per column of the plan: value_start, value_comp, value_tally. */
static int value_parts(PlanObject *p, PyObject *parts)
{
    PyObject *fast = PySequence_Fast(parts, "value_parts");
    if (!fast)
        return -1;
    int status = -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast), entries = 0;
    i32 **cols = PyMem_Calloc(count + 1, sizeof(i32 *)), **comps = PyMem_Calloc(count + 1, sizeof(i32 *));
    i64 **tallies = PyMem_Calloc(count + 1, sizeof(i64 *));
    Py_ssize_t *sizes = PyMem_Calloc(count + 1, sizeof(Py_ssize_t));
    if (!cols || !comps || !tallies || !sizes) {
        PyErr_NoMemory();
        goto done;
    }
    if (count != p->n_tables) {
        PyErr_Format(PyExc_ValueError, "plan: %zd value parts for %zd tables", count, p->n_tables);
        goto done;
    }
    for (Py_ssize_t t = 0; t < count; t++) {
        PyObject *col, *comp, *tally;
        Py_ssize_t n, m;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, t), "OOO", &col, &comp, &tally))
            goto done;
        i32 width = p->col_start[t + 1] - p->col_start[t];
        if (to_i32(col, "value_col", &cols[t], &sizes[t], 0, width) < 0 ||
            to_i32(comp, "value_comp", &comps[t], &n, 0, n_comp) < 0 || to_i64(tally, "value_tally", &tallies[t], &m) < 0)
            goto done;
        if (n != sizes[t] || m != sizes[t]) {
            PyErr_SetString(PyExc_ValueError, "plan: a value part's arrays differ in length");
            goto done;
        }
        for (Py_ssize_t i = 1; i < n; i++)
            if (cols[t][i - 1] > cols[t][i]) {
                PyErr_SetString(PyExc_ValueError, "plan: a value part not sorted by column");
                goto done;
            }
        entries += n;
    }
    p->value_start = PyMem_Calloc(p->n_cols + 1, sizeof(i32));
    p->value_comp = PyMem_Malloc(sizeof(i32) * (entries + 1));
    p->value_tally = PyMem_Malloc(sizeof(i64) * (entries + 1));
    if (!p->value_start || !p->value_comp || !p->value_tally || entries >= BIG) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t t = 0; t < count; t++) {
        for (Py_ssize_t i = 0; i < sizes[t]; i++)
            p->value_start[p->col_start[t] + cols[t][i] + 1]++;
        memcpy(p->value_comp + at, comps[t], sizeof(i32) * sizes[t]);
        memcpy(p->value_tally + at, tallies[t], sizeof(i64) * sizes[t]);
        at += sizes[t];
    }
    for (Py_ssize_t c = 0; c < p->n_cols; c++)
        p->value_start[c + 1] += p->value_start[c];
    status = 0;
done:
    for (Py_ssize_t t = 0; t < count && cols; t++) {
        PyMem_Free(cols[t]);
        if (comps)
            PyMem_Free(comps[t]);
        if (tallies)
            PyMem_Free(tallies[t]);
    }
    PyMem_Free(cols);
    PyMem_Free(comps);
    PyMem_Free(tallies);
    PyMem_Free(sizes);
    Py_DECREF(fast);
    return status;
}

/* Plan(spec): spec a dict of flat sequences of ints (native.plan_spec builds it; the names
 * are the PlanObject fields).  Every index is checked against what it indexes, so a plan
 * never reads outside its arrays; a number past int64 is an OverflowError. */
static PyObject *plan_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *spec;
    if (!ready)
        return PyErr_Format(PyExc_RuntimeError, "the kernel is not initialised");
    if (!PyArg_ParseTuple(args, "O!", &PyDict_Type, &spec))
        return NULL;
    PlanObject *p = (PlanObject *)type->tp_alloc(type, 0); /* zeroed: every array NULL */
    if (!p)
        return NULL;
    PyObject *item;
    Py_ssize_t n, m;
    i64 *read = NULL;
#define GET(name)                                                                  \
    if (!(item = PyDict_GetItemString(spec, name))) {                              \
        PyErr_Format(PyExc_KeyError, "plan without %s", name);                     \
        goto fail;                                                                 \
    }
#define I32(field, name, count, low, high)                                         \
    GET(name);                                                                     \
    if (to_i32(item, name, &p->field, count, low, high) < 0)                       \
        goto fail;
#define I64(field, name, count)                                                    \
    GET(name);                                                                     \
    if (to_i64(item, name, &p->field, count) < 0)                                  \
        goto fail;
#define LENGTH(name, got, want)                                                    \
    if ((got) != (want)) {                                                         \
        PyErr_Format(PyExc_ValueError, "plan: %s has %zd entries, not %zd", name,  \
                     (Py_ssize_t)(got), (Py_ssize_t)(want));                       \
        goto fail;                                                                 \
    }
    /* columns and the value part */
    I32(col_start, "col_start", &n, 0, BIG);
    p->n_tables = n - 1;
    if (n < 1 || p->col_start[0] != 0)
        goto bad;
    for (Py_ssize_t i = 0; i < p->n_tables; i++)
        if (p->col_start[i] > p->col_start[i + 1])
            goto bad;
    p->n_cols = p->col_start[n - 1];
    GET("value_parts");
    if (value_parts(p, item) < 0)
        goto fail;
    /* rows */
    I32(row_start, "row_start", &n, 0, BIG);
    p->n_rows = n - 1;
    if (n < 1)
        goto bad;
    I32(row_comp, "row_comp", &n, 0, n_comp);
    I64(row_tally, "row_tally", &m);
    LENGTH("row_tally", m, n);
    if (check_starts(p->row_start, p->n_rows, n, "row_start") < 0)
        goto fail;
    GET("row_read");
    if (to_i64(item, "row_read", &read, &n) < 0)
        goto fail;
    LENGTH("row_read", n, p->n_rows);
    p->row_read = PyMem_Malloc(NVAL * (n ? n : 1));
    if (!p->row_read) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t r = 0; r < n; r++) {
        int total = 0;
        if (read[r] < 0 || read[r] >= ((i64)1 << (3 * NVAL)))
            goto bad;
        for (int v = 0; v < NVAL; v++) {
            p->row_read[NVAL * r + v] = (unsigned char)((read[r] >> (3 * v)) & 7);
            total += p->row_read[NVAL * r + v];
        }
        if (total > MAXC)
            goto bad;
    }
    PyMem_Free(read);
    read = NULL;
    I64(row_coef, "row_coef", &m);
    LENGTH("row_coef", m, p->n_rows);
    I32(row_pad, "row_pad", &m, -1, 2 * (MAXC + 1));
    LENGTH("row_pad", m, p->n_rows);
    /* the weight program */
    I32(fall_pool, "fall_pool", &n, 0, n_pool);
    p->n_falls = n;
    I32(fall_m, "fall_m", &m, 0, MAXC + 1);
    LENGTH("fall_m", m, n);
    I64(fall_shift, "fall_shift", &m);
    LENGTH("fall_shift", m, n);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (p->fall_shift[i] < -BIG || p->fall_shift[i] > BIG)
            goto bad;
        if (pool_suited[p->fall_pool[i]])
            p->needs_suits = 1;
    }
    I32(sub_start, "sub_start", &n, 0, BIG);
    p->n_subterms = n - 1;
    if (n < 1)
        goto bad;
    I32(sub_fall, "sub_fall", &n, 0, p->n_falls);
    if (check_starts(p->sub_start, p->n_subterms, n, "sub_start") < 0)
        goto fail;
    /* the subterms grouped by their number of falls: a loop of fixed length each */
    p->sub_order = PyMem_Malloc(sizeof(i32) * (p->n_subterms + 1));
    p->sub_packed = PyMem_Malloc(sizeof(i32) * (n + 1));
    if (!p->sub_order || !p->sub_packed) {
        PyErr_NoMemory();
        goto fail;
    }
    {
        Py_ssize_t order = 0, packed = 0;
        for (int group = 0; group < 4; group++) {
            p->sub_count[group] = 0;
            for (Py_ssize_t j = 0; j < p->n_subterms; j++) {
                i32 length = p->sub_start[j + 1] - p->sub_start[j];
                if ((group < 3 && length != group + 1) || (group == 3 && length >= 1 && length <= 3))
                    continue;
                p->sub_order[order++] = (i32)j;
                p->sub_count[group]++;
                if (group < 3)
                    for (i32 k = p->sub_start[j]; k < p->sub_start[j + 1]; k++)
                        p->sub_packed[packed++] = p->sub_fall[k];
            }
        }
    }
    I32(fac_start, "fac_start", &n, 0, BIG);
    p->n_factors = n - 1;
    if (n < 1)
        goto bad;
    I32(fac_sub, "fac_sub", &n, 0, p->n_subterms);
    if (check_starts(p->fac_start, p->n_factors, n, "fac_start") < 0)
        goto fail;
    I64(fac_mult, "fac_mult", &m);
    LENGTH("fac_mult", m, p->n_factors);
    I32(comp_start, "comp_start", &n, 0, BIG);
    p->n_comps = n - 1;
    if (n < 1)
        goto bad;
    I32(term_start, "term_start", &n, 0, BIG);
    p->n_terms = n - 1;
    if (n < 1)
        goto bad;
    if (check_starts(p->comp_start, p->n_comps, p->n_terms, "comp_start") < 0)
        goto fail;
    I32(term_factor, "term_factor", &n, 0, p->n_factors);
    if (check_starts(p->term_start, p->n_terms, n, "term_start") < 0)
        goto fail;
    I32(term_cards, "term_cards", &m, 0, MAXC + 1);
    LENGTH("term_cards", m, p->n_terms);
    I64(term_mult, "term_mult", &m);
    LENGTH("term_mult", m, p->n_terms);
    /* leaves */
    I32(leaf_row, "leaf_row", &n, 0, p->n_rows);
    p->n_leaves = n;
    I32(leaf_comp, "leaf_comp", &m, 0, p->n_comps);
    LENGTH("leaf_comp", m, n);
    I32(leaf_col, "leaf_col", &m, 0, p->n_cols);
    LENGTH("leaf_col", m, n);
    I32(leaf_rest, "leaf_rest", &m, 0, p->n_cols);
    LENGTH("leaf_rest", m, n);
    I64(leaf_mult, "leaf_mult", &m);
    LENGTH("leaf_mult", m, n);
    if (shared_products(p) < 0 || leaf_groups(p) < 0)
        goto fail;
    p->room = 2 * (MAXC + 1) + p->n_sum_rows + p->n_falls + p->n_subterms + p->n_factors + 1 + p->n_nodes + 1;
    return (PyObject *)p;
bad:
    PyErr_SetString(PyExc_ValueError, "a malformed plan");
fail:
    PyMem_Free(read);
    Py_DECREF(p);
    return NULL;
#undef GET
#undef I32
#undef I64
#undef LENGTH
}

/* plan.counts(state, out=None): every column's count on the shoe, and each table's total.
 * With ``out`` (a writable, C-contiguous buffer of n_cols int64, 64-bit ring only) the counts
 * go there and the call returns (None, totals); else (counts, totals), lists of ints. */
static PyObject *plan_counts(PlanObject *p, PyObject *args)
{
    ShoeStateObject *s;
    PyObject *out_obj = Py_None;
    if (!PyArg_ParseTuple(args, "O!|O", &ShoeStateType, &s, &out_obj))
        return NULL;
    if (p->needs_suits && !s->suited)
        return PyErr_Format(PyExc_ValueError, "the plan needs the suits of the cards");
    if (state_weights(s) < 0)
        return NULL;
    Py_buffer view;
    int have_view = 0;
    if (out_obj != Py_None) {
        if (s->tier != 64)
            return PyErr_Format(PyExc_ValueError, "int64 counts of a shoe past the 64-bit ring");
        if (PyObject_GetBuffer(out_obj, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
            return NULL;
        have_view = 1;
        const char *f = view.format ? view.format : "B";
        if (*f == '<' || *f == '=' || *f == '@')
            f++;
        if (view.itemsize != 8 || (strcmp(f, "q") && strcmp(f, "l")) || view.len != 8 * p->n_cols) {
            PyBuffer_Release(&view);
            return PyErr_Format(PyExc_ValueError, "out: %zd int64 expected", p->n_cols);
        }
    }
    Py_ssize_t room = p->room;
    PyObject *counts = NULL, *totals = NULL, *result = NULL;
    if (s->tier == 64) {
        u64 *scratch = PyMem_Malloc(sizeof(u64) * (room + (have_view ? 0 : p->n_cols)));
        if (!scratch) {
            PyErr_NoMemory();
            goto end;
        }
        u64 *acc = have_view ? (u64 *)view.buf : scratch + room;
        evaluate_64(p, s->pools, s->size, s->falls64, s->pads64, s->w64, acc, scratch);
        totals = PyList_New(p->n_tables);
        if (totals)
            for (Py_ssize_t t = 0; t < p->n_tables; t++) {
                u64 sum = 0;
                for (i32 c = p->col_start[t]; c < p->col_start[t + 1]; c++)
                    sum += acc[c];
                PyList_SET_ITEM(totals, t, PyLong_FromLongLong((long long)(i64)sum));
            }
        if (totals && !have_view && (counts = PyList_New(p->n_cols)))
            for (Py_ssize_t c = 0; c < p->n_cols; c++)
                PyList_SET_ITEM(counts, c, PyLong_FromLongLong((long long)(i64)acc[c]));
        PyMem_Free(scratch);
    }
#ifdef HAVE_INT128
    else {
        u128 *scratch = PyMem_Malloc(sizeof(u128) * (room + p->n_cols));
        if (!scratch) {
            PyErr_NoMemory();
            goto end;
        }
        u128 *acc = scratch + room;
        evaluate_128(p, s->pools, s->size, s->falls128, s->pads128, s->w128, acc, scratch);
        totals = PyList_New(p->n_tables);
        if (totals)
            for (Py_ssize_t t = 0; t < p->n_tables; t++) {
                u128 sum = 0;
                for (i32 c = p->col_start[t]; c < p->col_start[t + 1]; c++)
                    sum += acc[c];
                PyList_SET_ITEM(totals, t, int128_to_py(sum));
            }
        if (totals && (counts = PyList_New(p->n_cols)))
            for (Py_ssize_t c = 0; c < p->n_cols; c++)
                PyList_SET_ITEM(counts, c, int128_to_py(acc[c]));
        PyMem_Free(scratch);
    }
#endif
    /* an item that failed to convert (no memory) is NULL in its list: refuse the lists */
    if (totals)
        for (Py_ssize_t t = 0; t < p->n_tables; t++)
            if (!PyList_GET_ITEM(totals, t))
                goto end;
    if (counts)
        for (Py_ssize_t c = 0; c < p->n_cols; c++)
            if (!PyList_GET_ITEM(counts, c))
                goto end;
    if (totals && (counts || have_view))
        result = PyTuple_Pack(2, counts ? counts : Py_None, totals);
end:
    Py_XDECREF(counts);
    Py_XDECREF(totals);
    if (have_view)
        PyBuffer_Release(&view);
    return result;
}

/* A C-contiguous 2-D buffer of 8-byte items: int64 ('q'), float64 ('d'), or either ('?'; the one
 * found is set in *kind); ValueError otherwise. */
static int matrix(PyObject *obj, Py_buffer *view, int writable, char *kind, const char *what)
{
    if (PyObject_GetBuffer(obj, view, (writable ? PyBUF_WRITABLE : 0) | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@')
        f++;
    char found = !strcmp(f, "q") || !strcmp(f, "l") ? 'q' : !strcmp(f, "d") ? 'd' : 0;
    if (view->itemsize != 8 || view->ndim != 2 || !found || (*kind != '?' && *kind != found)) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s: a C-contiguous 2-d array of %s expected", what,
                     *kind == 'q' ? "int64" : *kind == 'd' ? "float64" : "int64 or float64");
        return -1;
    }
    *kind = found;
    return 0;
}

/* plan.many(counts, out, weights=None): the plan's column counts on many shoes of the 64-bit
 * ring, one row each.  counts: (shoes, 13) rank counts or (shoes, 52) card counts (rank-major),
 * int64; out: (shoes, columns) int64, written; weights: None, or (shoes, 7,722) int64 or
 * float64, written with each shoe's value weights (float64 only where they are exact: the
 * shoe's N!/(N-K)!, the largest, below 2**53, else a ValueError).  A negative count is a
 * ValueError, a shoe past 1,448 cards an OverflowError, a plan that needs suits on rank counts
 * a ValueError; nothing is written then.  The evaluation runs without the GIL. */
static PyObject *plan_many(PlanObject *p, PyObject *args)
{
    PyObject *counts_obj, *out_obj, *weights_obj = Py_None;
    if (!PyArg_ParseTuple(args, "OO|O", &counts_obj, &out_obj, &weights_obj))
        return NULL;
    Py_buffer cv, ov, wv;
    char ck = 'q', ok = 'q', wk = '?';
    if (matrix(counts_obj, &cv, 0, &ck, "counts") < 0)
        return NULL;
    if (matrix(out_obj, &ov, 1, &ok, "out") < 0) {
        PyBuffer_Release(&cv);
        return NULL;
    }
    int have_w = weights_obj != Py_None;
    if (have_w && matrix(weights_obj, &wv, 1, &wk, "weights") < 0) {
        PyBuffer_Release(&cv);
        PyBuffer_Release(&ov);
        return NULL;
    }
    PyObject *result = NULL;
    u64 *w = NULL, *scratch = NULL;
    i64 *pools = NULL;
    Py_ssize_t n = cv.shape[0], width = cv.shape[1];
    const i64 *counts = cv.buf;
    if (width != NRANK && width != NCARD) {
        PyErr_SetString(PyExc_ValueError, "counts: 13 rank counts or 52 card counts a shoe expected");
        goto end;
    }
    if (p->needs_suits && width != NCARD) {
        PyErr_SetString(PyExc_ValueError, "the plan needs the suits of the cards");
        goto end;
    }
    if (ov.shape[0] != n || ov.shape[1] != p->n_cols || (have_w && (wv.shape[0] != n || wv.shape[1] != n_comp))) {
        PyErr_Format(PyExc_ValueError, "out: (%zd, %zd) and weights: (%zd, %zd) expected", n, p->n_cols, n, n_comp);
        goto end;
    }
    for (Py_ssize_t s = 0; s < n; s++) { /* every shoe checked before any is written */
        i64 size = 0;
        for (Py_ssize_t j = 0; j < width; j++) {
            i64 x = counts[s * width + j];
            if (x < 0) {
                PyErr_SetString(PyExc_ValueError, "a negative card count");
                goto end;
            }
            if (x > MAX_SIZE_64 || (size += x) > MAX_SIZE_64) {
                PyErr_Format(PyExc_OverflowError, "a shoe past the 64-bit ring (%d cards)", MAX_SIZE_64);
                goto end;
            }
        }
        /* N!/(N-K)!: every weight is at most it (N <= 1,448: N**6 < 2**63, no wrap) */
        u64 top = falling_64(size, (int)(size < MAXC ? size : MAXC));
        if (have_w && wk == 'd' && top >= ((u64)1 << 53)) {
            PyErr_SetString(PyExc_ValueError, "float64 weights of a shoe past 2**53 sequences are not exact");
            goto end;
        }
    }
    Py_ssize_t room = p->room;
    w = PyMem_Malloc(sizeof(u64) * (n_comp + (MAXC + 1 - MIN_CARDS) * n_low + n_high + 1));
    scratch = PyMem_Malloc(sizeof(u64) * room);
    pools = PyMem_Malloc(sizeof(i64) * (n_pool ? n_pool : 1));
    if (!w || !scratch || !pools) {
        PyErr_NoMemory();
        goto end;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t s = 0; s < n; s++) {
        const i64 *row = counts + s * width, *cards = NULL;
        i64 ranks[NRANK], values[NVAL] = {0}, size = 0;
        if (width == NCARD) {
            cards = row;
            for (int r = 0; r < NRANK; r++)
                ranks[r] = row[4 * r] + row[4 * r + 1] + row[4 * r + 2] + row[4 * r + 3];
        } else
            memcpy(ranks, row, sizeof ranks);
        for (int r = 0; r < NRANK; r++) {
            values[rank_value[r]] += ranks[r];
            size += ranks[r];
        }
        shoe_pools(ranks, cards, pools);
        u64 falls[NVAL][MAXC + 1], pads[MAXC + 1];
        shoe_tables_64(values, size, falls, pads);
        weights_64(falls, pads, w, w + n_comp);
        if (have_w && wk == 'd') {
            double *to = (double *)wv.buf + s * n_comp;
            for (Py_ssize_t c = 0; c < n_comp; c++)
                to[c] = (double)w[c]; /* below 2**53 (checked): exact */
        } else if (have_w)
            memcpy((i64 *)wv.buf + s * n_comp, w, sizeof(u64) * n_comp);
        evaluate_64(p, pools, size, falls, pads, w, (u64 *)ov.buf + s * p->n_cols, scratch);
    }
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
end:
    PyMem_Free(w);
    PyMem_Free(scratch);
    PyMem_Free(pools);
    PyBuffer_Release(&cv);
    PyBuffer_Release(&ov);
    if (have_w)
        PyBuffer_Release(&wv);
    return result;
}

static PyObject *plan_columns(PlanObject *p, void *closure) { return PyLong_FromSsize_t(p->n_cols); }
static PyObject *plan_needs_suits(PlanObject *p, void *closure) { return PyBool_FromLong(p->needs_suits); }

static PyMethodDef plan_methods[] = {
    {"counts", (PyCFunction)plan_counts, METH_VARARGS,
     "counts(state, out=None) -> (counts or None, totals): every column's count on the shoe."},
    {"many", (PyCFunction)plan_many, METH_VARARGS,
     "many(counts, out, weights=None): every column's count (and value weights) on many shoes."},
    {NULL},
};

static PyGetSetDef plan_getset[] = {
    {"columns", (getter)plan_columns, NULL, "columns of the plan's tables together", NULL},
    {"needs_suits", (getter)plan_needs_suits, NULL, "whether a pool of the plan needs suits", NULL},
    {NULL},
};

static PyTypeObject PlanType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "analyzer.engine._native.Plan",
    .tp_doc = "Index arrays of one or more compiled tables: Plan(spec) (native.plan_spec).",
    .tp_basicsize = sizeof(PlanObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = plan_new,
    .tp_dealloc = (destructor)plan_dealloc,
    .tp_methods = plan_methods,
    .tp_getset = plan_getset,
};

/* -- Settled: a bet settled over a table's columns ---------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Py_ssize_t n_cols, n_keys;
    i32 *index;     /* the key of each column */
    i32 *key_start; /* the columns by key: key k's in by_key[key_start[k]:key_start[k + 1]] */
    i32 *by_key;
    i64 *scaled;    /* L x the pays of each key */
    PyObject *keys; /* a tuple of (event, pays), one per key */
} SettledObject;

static PyTypeObject SettledType;

/* Settled(index, scaled, keys): the key of each column, L x each key's pays (int64: else an
 * OverflowError) and the keys (event, pays) as pricing.Settlement holds them. */
static PyObject *settled_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *index, *scaled, *keys;
    if (!PyArg_ParseTuple(args, "OOO!", &index, &scaled, &PyTuple_Type, &keys))
        return NULL;
    SettledObject *p = (SettledObject *)type->tp_alloc(type, 0);
    if (!p)
        return NULL;
    Py_ssize_t n;
    p->n_keys = PyTuple_GET_SIZE(keys);
    if (to_i32(index, "index", &p->index, &p->n_cols, 0, p->n_keys) < 0 ||
        to_i64(scaled, "scaled", &p->scaled, &n) < 0) {
        Py_DECREF(p);
        return NULL;
    }
    if (n != p->n_keys) {
        Py_DECREF(p);
        return PyErr_Format(PyExc_ValueError, "one scaled pay per key expected");
    }
    p->key_start = PyMem_Calloc(p->n_keys + 1, sizeof(i32));
    p->by_key = PyMem_Malloc(sizeof(i32) * (p->n_cols + 1));
    if (!p->key_start || !p->by_key) {
        Py_DECREF(p);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t c = 0; c < p->n_cols; c++) /* a counting sort of the columns by key */
        p->key_start[p->index[c] + 1]++;
    for (Py_ssize_t k = 0; k < p->n_keys; k++)
        p->key_start[k + 1] += p->key_start[k];
    {
        i32 *next = PyMem_Malloc(sizeof(i32) * (p->n_keys + 1));
        if (!next) {
            Py_DECREF(p);
            return PyErr_NoMemory();
        }
        memcpy(next, p->key_start, sizeof(i32) * (p->n_keys + 1));
        for (Py_ssize_t c = 0; c < p->n_cols; c++)
            p->by_key[next[p->index[c]]++] = (i32)c;
        PyMem_Free(next);
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *key = PyTuple_GET_ITEM(keys, k);
        if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != 2) {
            Py_DECREF(p);
            return PyErr_Format(PyExc_ValueError, "a key is (event, pays)");
        }
    }
    Py_INCREF(keys);
    p->keys = keys;
    return (PyObject *)p;
}

static void settled_dealloc(SettledObject *p)
{
    PyMem_Free(p->index);
    PyMem_Free(p->key_start);
    PyMem_Free(p->by_key);
    PyMem_Free(p->scaled);
    Py_XDECREF(p->keys);
    Py_TYPE(p)->tp_free((PyObject *)p);
}

/* settled.summary(counts): the bet's statistics from its table's column counts (a C-contiguous
 * int64 buffer, or a list of ints): (events, first, second, pushes, hits), events a tuple of
 * (event, pays, count) per key -- pricing.Settlement.summary's integers -- or None when a
 * number is past what the kernel computes exactly here (a count past int64, a moment past
 * 128 bits): the caller's Python integers take those.  Counts are numbers of sequences, >= 0. */
static PyObject *settled_summary(SettledObject *p, PyObject *counts)
{
    Py_buffer view;
    int have_view = 0;
    const i64 *buf = NULL;
    if (PyList_Check(counts)) {
        if (PyList_GET_SIZE(counts) != p->n_cols)
            return PyErr_Format(PyExc_ValueError, "%zd counts expected", p->n_cols);
    } else {
        if (PyObject_GetBuffer(counts, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
            return NULL;
        have_view = 1;
        const char *f = view.format ? view.format : "B";
        if (*f == '<' || *f == '=' || *f == '@')
            f++;
        if (view.itemsize != 8 || (strcmp(f, "q") && strcmp(f, "l")) || view.len != 8 * p->n_cols) {
            PyBuffer_Release(&view);
            return PyErr_Format(PyExc_ValueError, "%zd int64 counts expected", p->n_cols);
        }
        buf = view.buf;
    }
    i64 stack[64];
    i64 *sums = p->n_keys <= 64 ? stack : PyMem_Malloc(sizeof(i64) * p->n_keys);
    PyObject *result = NULL, *events = NULL;
    if (!sums) {
        PyErr_NoMemory();
        goto end;
    }
    i64 *list_counts = NULL;
    if (!buf) { /* a list of ints: each read once, into int64 */
        list_counts = PyMem_Malloc(sizeof(i64) * (p->n_cols + 1));
        if (!list_counts) {
            PyErr_NoMemory();
            goto end;
        }
        for (Py_ssize_t c = 0; c < p->n_cols; c++) {
            int overflow;
            list_counts[c] = PyLong_AsLongLongAndOverflow(PyList_GET_ITEM(counts, c), &overflow);
            if (overflow || (list_counts[c] == -1 && PyErr_Occurred())) {
                PyMem_Free(list_counts);
                if (PyErr_Occurred())
                    goto end;
                result = Py_None; /* a count past int64: Python integers */
                Py_INCREF(result);
                goto end;
            }
        }
        buf = list_counts;
    }
    /* counts are >= 0 and their total below 2**63 (checked: then no key's sum overflows) */
    u64 total = 0;
    int bad = 0;
    for (Py_ssize_t c = 0; c < p->n_cols; c++) {
        bad |= buf[c] < 0;
        bad |= __builtin_add_overflow(total, (u64)buf[c], &total);
    }
    bad |= total > (u64)INT64_MAX;
    if (!bad)
        for (Py_ssize_t k = 0; k < p->n_keys; k++) {
            i64 sum = 0;
            for (i32 j = p->key_start[k]; j < p->key_start[k + 1]; j++)
                sum += buf[p->by_key[j]];
            sums[k] = sum;
        }
    PyMem_Free(list_counts);
    if (bad) {
        result = Py_None;
        Py_INCREF(result);
        goto end;
    }
#ifdef HAVE_INT128
    s128 first = 0, second = 0;
#else
    i64 first = 0, second = 0;
#endif
    i64 push = 0, hit = 0;
    for (Py_ssize_t k = 0; k < p->n_keys; k++) {
        i64 n = sums[k], x = p->scaled[k];
        if (!n)
            continue;
#ifdef HAVE_INT128
        s128 nx = (s128)n * x, nxx; /* |n x| < 2**126: no overflow */
        if (__builtin_mul_overflow(nx, (s128)x, &nxx) || __builtin_add_overflow(first, nx, &first) ||
            __builtin_add_overflow(second, nxx, &second)) {
#else
        i64 nx, nxx;
        if (__builtin_mul_overflow(n, x, &nx) || __builtin_mul_overflow(nx, x, &nxx) ||
            __builtin_add_overflow(first, nx, &first) || __builtin_add_overflow(second, nxx, &second)) {
#endif
            result = Py_None; /* a moment past the kernel's integers */
            Py_INCREF(result);
            goto end;
        }
        if (x == 0)
            push += n;
        else if (x > 0)
            hit += n;
    }
    events = PyTuple_New(p->n_keys);
    if (!events)
        goto end;
    for (Py_ssize_t k = 0; k < p->n_keys; k++) {
        PyObject *key = PyTuple_GET_ITEM(p->keys, k);
        PyObject *n = PyLong_FromLongLong(sums[k]);
        if (!n)
            goto end;
        PyObject *row = PyTuple_Pack(3, PyTuple_GET_ITEM(key, 0), PyTuple_GET_ITEM(key, 1), n);
        Py_DECREF(n);
        if (!row)
            goto end;
        PyTuple_SET_ITEM(events, k, row);
    }
#ifdef HAVE_INT128
    PyObject *first_obj = int128_to_py((u128)first), *second_obj = int128_to_py((u128)second);
#else
    PyObject *first_obj = PyLong_FromLongLong(first), *second_obj = PyLong_FromLongLong(second);
#endif
    if (first_obj && second_obj)
        result = Py_BuildValue("(OOOLL)", events, first_obj, second_obj, (long long)push, (long long)hit);
    Py_XDECREF(first_obj);
    Py_XDECREF(second_obj);
end:
    Py_XDECREF(events);
    if (sums && sums != stack)
        PyMem_Free(sums);
    if (have_view)
        PyBuffer_Release(&view);
    return result;
}

static PyMethodDef settled_methods[] = {
    {"summary", (PyCFunction)settled_summary, METH_O,
     "summary(counts) -> (events, first, second, pushes, hits), or None past the kernel's integers."},
    {NULL},
};

static PyTypeObject SettledType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "analyzer.engine._native.Settled",
    .tp_doc = "A bet settled over a table's columns: Settled(index, scaled, keys).",
    .tp_basicsize = sizeof(SettledObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = settled_new,
    .tp_dealloc = (destructor)settled_dealloc,
    .tp_methods = settled_methods,
};

/* -- the module -------------------------------------------------------------------------------- */

static PyMethodDef module_methods[] = {
    {"init", native_init, METH_VARARGS, "init(compositions, pools, rank_values): the shared definitions."},
    {NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_native",
    .m_doc = "The compiled evaluation kernel (see analyzer.engine.native).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__native(void)
{
    if (PyType_Ready(&ShoeStateType) < 0 || PyType_Ready(&PlanType) < 0 || PyType_Ready(&SettledType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    Py_INCREF(&ShoeStateType);
    Py_INCREF(&PlanType);
    Py_INCREF(&SettledType);
    if (PyModule_AddObject(m, "ShoeState", (PyObject *)&ShoeStateType) < 0 ||
        PyModule_AddObject(m, "Plan", (PyObject *)&PlanType) < 0 ||
        PyModule_AddObject(m, "Settled", (PyObject *)&SettledType) < 0 ||
        PyModule_AddIntConstant(m, "MAX_SIZE_64", MAX_SIZE_64) < 0 ||
#ifdef HAVE_INT128
        PyModule_AddIntConstant(m, "MAX_SIZE_128", MAX_SIZE_128) < 0 ||
#else
        PyModule_AddIntConstant(m, "MAX_SIZE_128", 0) < 0 ||
#endif
        0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
