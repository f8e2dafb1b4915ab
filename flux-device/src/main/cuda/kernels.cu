// scflux device kernels: one CSR row block (int32 indptr and indices, float32 values) at a time.
//
// Compiled to PTX with `nvcc -ptx -arch=compute_80 -fmad=false` (no fused multiply-add, so products and sums round as
// the JVM rounds them) and loaded with cuModuleLoadData. Reductions add into 128-bit fixed-point cells with integer
// atomics: integer addition is associative, so a block's partial has the same bits whatever order the threads ran in,
// and the host merges the partials in block order. Each term is rint(x * 2^e), e chosen by the host from a bound on the
// block's sums so that no cell overflows; a cell is two unsigned 64-bit words, low then high.

#include <stdint.h>
#include <string.h>

// Correctly rounded float64 -> float32, float32 and float64 products and float64 sums, never fused: CUDA's intrinsics
// on the device, plain operators on the host (where src/test/cuda runs these functions without a GPU).
#ifdef __CUDA_ARCH__
#define TO_FLOAT(x) __double2float_rn(x)
#define FMUL(a, b) __fmul_rn(a, b)
#define DMUL(a, b) __dmul_rn(a, b)
#define DADD(a, b) __dadd_rn(a, b)
#else
#define TO_FLOAT(x) ((float) (x))
#define FMUL(a, b) ((float) (a) * (float) (b))
#define DMUL(a, b) ((double) (a) * (double) (b))
#define DADD(a, b) ((double) (a) + (double) (b))
#endif

// The 128-bit two's-complement words (low, high) of x, an integer-valued double: its magnitude is split exactly
// (the low part of a 53-bit mantissa is representable), then negated in integers when x is negative.
__host__ __device__ __forceinline__ void split128(double x, unsigned long long *low, unsigned long long *high) {
    double m = fabs(x);
    double hi = floor(ldexp(m, -64));
    unsigned long long h = (unsigned long long) hi;
    unsigned long long l = (unsigned long long) (m - ldexp(hi, 64));
    if (x < 0) {
        l = ~l + 1ull;
        h = ~h + (l == 0ull ? 1ull : 0ull);
    }
    *low = l;
    *high = h;
}

// Adds v to *p and returns the old value: atomically on the device, plainly on the host (for the host-only test).
__host__ __device__ __forceinline__ unsigned long long fetchAdd(unsigned long long *p, unsigned long long v) {
#ifdef __CUDA_ARCH__
    return atomicAdd(p, v);
#else
    unsigned long long old = *p;
    *p = old + v;
    return old;
#endif
}

// Adds x (already scaled by 2^e and rounded to an integer) into the 128-bit cell at c: the low word atomically, then
// its carry with the high word. Integer additions commute, so the cell ends the same whatever the order.
__host__ __device__ __forceinline__ void add128(unsigned long long *c, double x) {
    unsigned long long l, h;
    split128(x, &l, &h);
    unsigned long long old = fetchAdd(c, l);
    unsigned long long carry = old + l < old ? 1ull : 0ull;
    if (h + carry != 0ull) {
        fetchAdd(c + 1, h + carry);
    }
}

__host__ __device__ __forceinline__ double scaled(double x, int e) {
    return rint(ldexp(x, e));
}

// The row holding entry k: the last r with indptr[r] <= k.
__host__ __device__ __forceinline__ int rowOf(const int *indptr, int nRows, int k) {
    int lo = 0, hi = nRows - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) >> 1;
        if (indptr[mid] <= k) lo = mid; else hi = mid - 1;
    }
    return lo;
}

// One item of each kernel: a row, an entry, an entry, a (row, component). The kernels below run them grid-stride.

// normalize_total's division by the row's factor (zero taken as one), then log1p, as the host's NormalizeLog1p:
// the quotient rounded to float32, ln(1 + q) in float64, rounded to float32 when single, divided by ln(base).
__host__ __device__ __forceinline__ void normalizeRow(int r, const int *indptr, const float *in,
                                                      const double *factors, float *out, int single, double lnBase) {
    double f = factors[r];
    double divisor = f == 0.0 ? 1.0 : f;
    for (int k = indptr[r]; k < indptr[r + 1]; k++) {
        float q = TO_FLOAT((double) in[k] / divisor);
        double l = fabs(q) >= 0x1p-29 ? log(1.0 + (double) q) : log1p((double) q);
        double t = single ? (double) TO_FLOAT(l) : l;
        out[k] = TO_FLOAT(t / lnBase);
    }
}

// Entry k's value and square (in float32 when float32Squares) into its column's cells sum[2c], sq[2c].
__host__ __device__ __forceinline__ void columnSumsEntry(long long k, const int *indices, const float *values,
                                                         int float32Squares, int eSum, int eSq,
                                                         unsigned long long *sum, unsigned long long *sq) {
    float v = values[k];
    int c = indices[k];
    double square = float32Squares ? (double) FMUL(v, v) : DMUL(v, v);
    add128(sum + 2 * c, scaled((double) v, eSum));
    add128(sq + 2 * c, scaled(square, eSq));
}

// Entry i's products with every entry of its row whose column is not smaller, into the packed upper triangle of X^T X
// over p columns ((a, b), b >= a, at a * p - a * (a + 1) / 2 + b), and its value into its column's sum.
__host__ __device__ __forceinline__ void gramEntry(int i, int nRows, const int *indptr, const int *indices,
                                                   const float *values, int p, int eGram, int eSum,
                                                   unsigned long long *upper, unsigned long long *columnSums) {
    int r = rowOf(indptr, nRows, i);
    int a = indices[i];
    double va = values[i];
    add128(columnSums + 2 * a, scaled(va, eSum));
    long long base = (long long) a * p - (long long) a * (a + 1) / 2;
    for (int j = indptr[r]; j < indptr[r + 1]; j++) {
        int b = indices[j];
        if (b >= a) {
            add128(upper + 2 * (base + b), scaled(DMUL(va, (double) values[j]), eGram));
        }
    }
}

// Row r's coordinate on component j, x V - meanV, summed in row order in float64 and rounded to float32 as the host's
// projection; out is row-major nRows x k.
__host__ __device__ __forceinline__ void projectItem(long long t, const int *indptr, const int *indices,
                                                     const float *values, int k, const double *loadings,
                                                     const double *meanV, float *out) {
    int r = (int) (t / k);
    int j = (int) (t % k);
    double acc = 0.0;
    for (int i = indptr[r]; i < indptr[r + 1]; i++) {
        acc = DADD(acc, DMUL((double) values[i], loadings[(long long) indices[i] * k + j]));
    }
    out[t] = TO_FLOAT(DADD(acc, -meanV[j]));
}

// Re-indexing a block's columns for a concatenation, as the host's ColumnMap.reindex: to[c] is the output column of
// input column c (-1: dropped), missing[] the output columns the input lacks (ascending), filled with fill when
// `filled`. Three launches: each row's count, one thread's prefix sum into the row pointers, each row's entries.

// Row r's entries once re-indexed: its kept ones and the filled columns.
__host__ __device__ __forceinline__ int reindexCount(int r, const int *indptr, const int *indices, const int *to,
                                                     int filled) {
    int n = filled;
    for (int k = indptr[r]; k < indptr[r + 1]; k++) {
        n += to[indices[k]] >= 0 ? 1 : 0;
    }
    return n;
}

// Row counts in ptr[1..nRows] turned into row pointers, ptr[0] = 0.
__host__ __device__ __forceinline__ void rowPointers(int nRows, int *ptr) {
    ptr[0] = 0;
    for (int r = 1; r <= nRows; r++) {
        ptr[r] += ptr[r - 1];
    }
}

// A float's bits: CUDA's intrinsic on the device, a copy on the host.
__host__ __device__ __forceinline__ unsigned int floatBits(float x) {
#ifdef __CUDA_ARCH__
    return __float_as_uint(x);
#else
    unsigned int u;
    memcpy(&u, &x, sizeof u);
    return u;
#endif
}

// The host's RowSorter's order: by column, then (for rows over 32 entries, which it sorts as packed keys) by the value's
// bits read unsigned; shorter rows are sorted stably by column alone.
__host__ __device__ __forceinline__ bool before(int ia, float va, int ib, float vb, bool byBits) {
    if (ia != ib || !byBits) {
        return ia < ib;
    }
    return floatBits(va) < floatBits(vb);
}

__host__ __device__ __forceinline__ void siftDown(int *idx, float *val, int root, int n) {
    while (2 * root + 1 < n) {
        int child = 2 * root + 1;
        if (child + 1 < n && before(idx[child], val[child], idx[child + 1], val[child + 1], true)) {
            child++;
        }
        if (!before(idx[root], val[root], idx[child], val[child], true)) {
            return;
        }
        int ti = idx[root];
        float tv = val[root];
        idx[root] = idx[child];
        val[root] = val[child];
        idx[child] = ti;
        val[child] = tv;
        root = child;
    }
}

// Sorts idx/val[from, to) as RowSorter does: insertion sort up to 32 entries, else a heap sort on (column, bits), whose
// keys are distinct unless two entries are the same, so any sort gives RowSorter's result.
__host__ __device__ __forceinline__ void sortRow(int *idx, float *val, int from, int to) {
    int n = to - from;
    if (n > 32) {
        int *i = idx + from;
        float *v = val + from;
        for (int root = n / 2 - 1; root >= 0; root--) {
            siftDown(i, v, root, n);
        }
        for (int end = n - 1; end > 0; end--) {
            int ti = i[0];
            float tv = v[0];
            i[0] = i[end];
            v[0] = v[end];
            i[end] = ti;
            v[end] = tv;
            siftDown(i, v, 0, end);
        }
        return;
    }
    for (int k = from + 1; k < to; k++) {
        int c = idx[k];
        float x = val[k];
        int j = k - 1;
        while (j >= from && idx[j] > c) {
            idx[j + 1] = idx[j];
            val[j + 1] = val[j];
            j--;
        }
        idx[j + 1] = c;
        val[j + 1] = x;
    }
}

// Row r re-indexed at outPtr[r], step for step as ColumnMap.remapRow: kept entries in the input's order; then, when
// the map keeps the columns' order, the filled columns merged in from the end, else appended and the row sorted.
__host__ __device__ __forceinline__ void reindexRow(int r, const int *indptr, const int *indices, const float *values,
                                                    const int *to, const int *missing, int nMissing, int keepsOrder,
                                                    float fill, const int *outPtr, int *outIdx, float *outVal) {
    int at = outPtr[r];
    int n = at;
    for (int k = indptr[r]; k < indptr[r + 1]; k++) {
        int o = to[indices[k]];
        if (o >= 0) {
            outIdx[n] = o;
            outVal[n++] = values[k];
        }
    }
    bool filled = fill != 0.0f && nMissing > 0;
    if (!keepsOrder) {
        if (filled) {
            for (int m = 0; m < nMissing; m++) {
                outIdx[n] = missing[m];
                outVal[n++] = fill;
            }
        }
        sortRow(outIdx, outVal, at, n);
        return;
    }
    if (!filled) {
        return;
    }
    int end = n + nMissing;
    int k = n - 1;
    int w = end - 1;
    for (int m = nMissing - 1; m >= 0; w--) {
        if (k >= at && outIdx[k] > missing[m]) {
            outIdx[w] = outIdx[k];
            outVal[w] = outVal[k--];
        } else {
            outIdx[w] = missing[m--];
            outVal[w] = fill;
        }
    }
}

#define GRID_STRIDE(t, n) \
    for (long long t = blockIdx.x * (long long) blockDim.x + threadIdx.x; t < (n); \
         t += (long long) blockDim.x * gridDim.x)

extern "C" __global__ void normalize_log1p(int nRows, const int *indptr, const float *in, const double *factors,
                                           float *out, int single, double lnBase) {
    GRID_STRIDE(r, nRows) {
        normalizeRow((int) r, indptr, in, factors, out, single, lnBase);
    }
}

extern "C" __global__ void column_sums(int nnz, const int *indices, const float *values, int float32Squares,
                                       int eSum, int eSq, unsigned long long *sum, unsigned long long *sq) {
    GRID_STRIDE(k, nnz) {
        columnSumsEntry(k, indices, values, float32Squares, eSum, eSq, sum, sq);
    }
}

extern "C" __global__ void gram(int nRows, int nnz, const int *indptr, const int *indices, const float *values, int p,
                                int eGram, int eSum, unsigned long long *upper, unsigned long long *columnSums) {
    GRID_STRIDE(i, nnz) {
        gramEntry((int) i, nRows, indptr, indices, values, p, eGram, eSum, upper, columnSums);
    }
}

extern "C" __global__ void project(int nRows, const int *indptr, const int *indices, const float *values, int k,
                                   const double *loadings, const double *meanV, float *out) {
    GRID_STRIDE(t, (long long) nRows * k) {
        projectItem(t, indptr, indices, values, k, loadings, meanV, out);
    }
}

extern "C" __global__ void reindex_count(int nRows, const int *indptr, const int *indices, const int *to, int filled,
                                        int *outPtr) {
    GRID_STRIDE(r, nRows) {
        outPtr[r + 1] = reindexCount((int) r, indptr, indices, to, filled);
    }
}

extern "C" __global__ void row_pointers(int nRows, int *ptr) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        rowPointers(nRows, ptr);
    }
}

extern "C" __global__ void reindex_rows(int nRows, const int *indptr, const int *indices, const float *values,
                                       const int *to, const int *missing, int nMissing, int keepsOrder, float fill,
                                       const int *outPtr, int *outIdx, float *outVal) {
    GRID_STRIDE(r, nRows) {
        reindexRow((int) r, indptr, indices, values, to, missing, nMissing, keepsOrder, fill, outPtr, outIdx, outVal);
    }
}
