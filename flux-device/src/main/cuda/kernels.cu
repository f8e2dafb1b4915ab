// scflux device kernels: one CSR row block (int32 indptr and indices, float32 values) at a time.
//
// Compiled to PTX with `nvcc -ptx -arch=compute_80 -fmad=false` (no fused multiply-add, so products and sums round as
// the JVM rounds them) and loaded with cuModuleLoadData. Reductions add into 128-bit fixed-point cells with integer
// atomics: integer addition is associative, so a block's partial has the same bits whatever order the threads ran in,
// and the host merges the partials in block order. Each term is rint(x * 2^e), e chosen by the host from a bound on the
// block's sums so that no cell overflows; a cell is two unsigned 64-bit words, low then high.

#include <stdint.h>

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
