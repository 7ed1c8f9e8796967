/* The evaluation of analyzer/engine/_native.c in one ring of integers, included once per ring.
 *
 * Before each inclusion:  T   the unsigned type of the ring (uint64_t, or unsigned __int128);
 *                         ST  its signed type (int64_t, __int128);
 *                         FN(name) the name of this ring's copy of a function.
 *
 * Every operation below is an addition, a subtraction or a multiplication in the ring of
 * integers modulo 2**64 (2**128), which unsigned arithmetic computes exactly, except one: a
 * row's S / D(R).  So a result whose true value lies in the signed range of T is exact,
 * whatever its intermediate values were; the caller chooses the ring by the proven bound that
 * every count (and S and D(R)) of the shoe is at most N**6 (see _native.c).  S and D(R) are
 * counts themselves (S <= N!/(N-K)!, D(R) <= N**6), so they are exact before the division.
 */

/* falling(n, m) for a count n >= 0: 0 when n < m (a factor n - n = 0 is met). */
static inline T FN(falling)(ST n, int m)
{
    if (n < m)
        return 0;
    T out = 1;
    for (int i = 0; i < m; i++)
        out *= (T)(n - i);
    return out;
}

/* The shoe's falling factorials of each value's count (m = 0..6) and paddings
 * falling(N - k, K - k) (k = 0..6, K = min(N, 6); 0 where k > K). */
static void FN(shoe_tables)(const i64 values[NVAL], i64 size, T falls[NVAL][MAXC + 1], T pads[MAXC + 1])
{
    for (int v = 0; v < NVAL; v++)
        for (int m = 0; m <= MAXC; m++)
            falls[v][m] = FN(falling)((ST)values[v], m);
    i64 top = size < MAXC ? size : MAXC;
    for (int k = 0; k <= MAXC; k++)
        pads[k] = k <= top ? FN(falling)((ST)(size - k), (int)(top - k)) : 0;
}

/* The weight of every value composition: (padding x the low half's falling factorials) x the
 * high half's, each distinct half and padded low half computed once (the kernel's time is
 * its multiplications: one per composition here).  scratch: room for (MAXC + 1 - MIN_CARDS)
 * x n_low + n_high values. */
static void FN(weights)(T falls[NVAL][MAXC + 1], const T pads[MAXC + 1], T *w, T *scratch)
{
    T *hi = scratch, *lo = scratch + n_high; /* lo: a row of n_low per padding, 4 to 6 cards */
    for (Py_ssize_t j = 0; j < n_high; j++) {
        const unsigned char *m = high_mult + 5 * j;
        hi[j] = falls[5][m[0]] * falls[6][m[1]] * falls[7][m[2]] * falls[8][m[3]] * falls[9][m[4]];
    }
    for (Py_ssize_t j = 0; j < n_low; j++) {
        const unsigned char *m = low_mult + 5 * j;
        T x = falls[0][m[0]] * falls[1][m[1]] * falls[2][m[2]] * falls[3][m[3]] * falls[4][m[4]];
        for (int k = MIN_CARDS; k <= MAXC; k++)
            lo[(k - MIN_CARDS) * n_low + j] = pads[k] * x;
    }
    for (Py_ssize_t c = 0; c < n_comp; c++)
        w[c] = lo[comp_padded_low[c]] * hi[comp_high[c]];
}

/* Every column count of the plan on the shoe, into acc (the plan's columns).  w: the shoe's
 * composition weights; pools: its pool sizes; scratch: room for p->room values (the leaf
 * groups' multipliers, the falls, subterms, factors and shared products). */
static void FN(evaluate)(const PlanObject *p, const i64 *pools, i64 size, T falls[NVAL][MAXC + 1],
                         const T pads[MAXC + 1], const T *w, T *acc, T *scratch)
{
    /* the value part: sum of tally x W per column */
    for (Py_ssize_t c = 0; c < p->n_cols; c++) {
        T a = 0, b = 0, d = 0, e = 0;
        const i32 *comp_at = p->value_comp + p->value_start[c], *end = p->value_comp + p->value_start[c + 1];
        const i64 *tally = p->value_tally + p->value_start[c];
        for (; comp_at + 4 <= end; comp_at += 4, tally += 4) {
            a += (T)(ST)tally[0] * w[comp_at[0]];
            b += (T)(ST)tally[1] * w[comp_at[1]];
            d += (T)(ST)tally[2] * w[comp_at[2]];
            e += (T)(ST)tally[3] * w[comp_at[3]];
        }
        for (; comp_at < end; comp_at++, tally++)
            a += (T)(ST)tally[0] * w[comp_at[0]];
        acc[c] = a + b + d + e;
    }
    if (!p->n_leaves)
        return;
    /* the multipliers of the leaf groups (see leaf_groups in _native.c): the paddings
     * falling(N - k, K - k), then falling(N - r, 6 - r) (a first-four row's draws of the cards
     * after its r read ones), k, r = 0..6, then each summed row's S / D(R) */
    T *src = scratch;
    T *fall = src + 2 * (MAXC + 1) + p->n_sum_rows;
    T *sub = fall + p->n_falls;
    T *val = sub + p->n_subterms; /* the factors, a 1, the shared products (shared_products) */
    for (int k = 0; k <= MAXC; k++) {
        src[k] = pads[k];
        src[MAXC + 1 + k] = FN(falling)((ST)(size - k), MAXC - k);
    }
    /* a summed row's S / D(R): its count at the level of values over the ordered draws of its
     * read values */
    for (Py_ssize_t k = 0; k < p->n_sum_rows; k++) {
        i32 r = p->sum_rows[k];
        T s = 0;
        for (i32 j = p->row_start[r]; j < p->row_start[r + 1]; j++)
            s += (T)(ST)p->row_tally[j] * w[p->row_comp[j]];
        const unsigned char *m = p->row_read + NVAL * r;
        T d = 1;
        for (int v = 0; v < NVAL; v++)
            if (m[v])
                d *= falls[v][m[v]];
        src[2 * (MAXC + 1) + k] = d ? s / d : 0;
    }
    /* the weight program: falling factorials of pool sizes -> subterms -> factors -> terms */
    for (Py_ssize_t i = 0; i < p->n_falls; i++)
        fall[i] = FN(falling)((ST)(pools[p->fall_pool[i]] - p->fall_shift[i]), p->fall_m[i]);
    {
        const i32 *order = p->sub_order, *at = p->sub_packed;
        for (Py_ssize_t n = p->sub_count[0]; n > 0; n--, at++)
            sub[*order++] = fall[at[0]];
        for (Py_ssize_t n = p->sub_count[1]; n > 0; n--, at += 2)
            sub[*order++] = fall[at[0]] * fall[at[1]];
        for (Py_ssize_t n = p->sub_count[2]; n > 0; n--, at += 3)
            sub[*order++] = fall[at[0]] * fall[at[1]] * fall[at[2]];
        for (Py_ssize_t n = p->sub_count[3]; n > 0; n--) { /* none, or more than three */
            i32 j = *order++;
            T x = 1;
            for (i32 k = p->sub_start[j]; k < p->sub_start[j + 1]; k++)
                x *= fall[p->sub_fall[k]];
            sub[j] = x;
        }
    }
    for (Py_ssize_t f = 0; f < p->n_factors; f++) {
        T x = 0;
        for (i32 k = p->fac_start[f]; k < p->fac_start[f + 1]; k++)
            x += sub[p->fac_sub[k]];
        val[f] = x * (T)(ST)p->fac_mult[f];
    }
    val[p->n_factors] = 1;
    {
        T *node = val + p->n_factors + 1;
        for (Py_ssize_t i = 0; i < p->n_nodes; i++)
            node[i] = val[p->node_left[i]] * val[p->node_right[i]];
    }
    /* the groups of leaves and terms (leaf_groups in _native.c): the sum of coefficient x
     * product, times the group's multiplier and padding, to the group's column, and taken back
     * from its row's rest */
    T pad_of[MAXC + 1];
    for (int k = 0; k <= MAXC; k++)
        pad_of[k] = k ? pads[k] : 1; /* a composition of read cards alone: no padding */
    const T *coef = p->FN(group_coef);
    const i32 *ref = p->group_ref;
    for (Py_ssize_t g = 0; g < p->n_groups; g++) {
        T a = 0, b = 0;
        i32 e = p->group_start[g], end = p->group_start[g + 1];
        for (; e + 2 <= end; e += 2) {
            a += coef[e] * val[ref[e]];
            b += coef[e + 1] * val[ref[e + 1]];
        }
        if (e < end)
            a += coef[e] * val[ref[e]];
        T x = (a + b) * src[p->group_src[g]] * pad_of[p->group_cards[g]];
        acc[p->group_col[g]] += x;
        acc[p->group_rest[g]] -= x;
    }
}
