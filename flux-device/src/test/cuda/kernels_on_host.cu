// kernels.cu's per-item functions run on the host, without a GPU, for KernelsOnHostTest: reads one block and the
// kernels' arguments from argv[1], runs every item of the four kernels (entries in reverse order, to show the cells do
// not depend on it), writes their outputs to argv[2]; with `reindex IN OUT`, the re-indexing kernels' items instead
// (rows in reverse order). Built by flux-device's nvcc profile. Little-endian binary:
//   in:  int nRows, nnz, nCols, k, single, float32Squares, eSum, eSq, eGram; double lnBase;
//        int indptr[nRows + 1], indices[nnz]; float values[nnz]; double factors[nRows], loadings[nCols * k], meanV[k]
//   out: float normalized[nnz]; uint64 sum[2 nCols], sq[2 nCols], upper[2 nCols (nCols + 1) / 2], gramSums[2 nCols];
//        float projected[nRows * k]
//   reindex in:  int nRows, nnz, nIn, nMissing, keepsOrder; float fill; int indptr[nRows + 1], indices[nnz];
//                float values[nnz]; int to[nIn], missing[nMissing]
//   reindex out: int ptr[nRows + 1], indices[ptr[nRows]]; float values[ptr[nRows]]
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "../../main/cuda/kernels.cu"

template <typename T> static void get(FILE *f, T *to, size_t n) {
    if (fread(to, sizeof(T), n, f) != n) {
        fprintf(stderr, "short input\n");
        exit(2);
    }
}

template <typename T> static void put(FILE *f, const std::vector<T> &v) {
    fwrite(v.data(), sizeof(T), v.size(), f);
}

static int reindex(const char *inPath, const char *outPath) {
    FILE *in = fopen(inPath, "rb");
    int h[5];
    get(in, h, 5);
    int nRows = h[0], nnz = h[1], nIn = h[2], nMissing = h[3], keepsOrder = h[4];
    float fill;
    get(in, &fill, 1);
    std::vector<int> indptr(nRows + 1), indices(nnz), to(nIn), missing(nMissing);
    std::vector<float> values(nnz);
    get(in, indptr.data(), indptr.size());
    get(in, indices.data(), indices.size());
    get(in, values.data(), values.size());
    get(in, to.data(), to.size());
    get(in, missing.data(), missing.size());
    fclose(in);

    std::vector<int> ptr(nRows + 1, -1);
    int filled = fill != 0.0f ? nMissing : 0;
    for (int r = nRows - 1; r >= 0; r--) {
        ptr[r + 1] = reindexCount(r, indptr.data(), indices.data(), to.data(), filled);
    }
    rowPointers(nRows, ptr.data());
    std::vector<int> outIdx(ptr[nRows]);
    std::vector<float> outVal(ptr[nRows]);
    for (int r = nRows - 1; r >= 0; r--) {
        reindexRow(r, indptr.data(), indices.data(), values.data(), to.data(), missing.data(), nMissing, keepsOrder,
                   fill, ptr.data(), outIdx.data(), outVal.data());
    }
    FILE *out = fopen(outPath, "wb");
    put(out, ptr);
    put(out, outIdx);
    put(out, outVal);
    fclose(out);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && std::string(argv[1]) == "reindex") {
        return reindex(argv[2], argv[3]);
    }
    if (argc != 3) {
        fprintf(stderr, "usage: %s [reindex] IN OUT\n", argv[0]);
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    int h[9];
    get(in, h, 9);
    int nRows = h[0], nnz = h[1], nCols = h[2], k = h[3], single = h[4], f32 = h[5], eSum = h[6], eSq = h[7],
        eGram = h[8];
    double lnBase;
    get(in, &lnBase, 1);
    std::vector<int> indptr(nRows + 1), indices(nnz);
    std::vector<float> values(nnz);
    std::vector<double> factors(nRows), loadings((size_t) nCols * k), meanV(k);
    get(in, indptr.data(), indptr.size());
    get(in, indices.data(), indices.size());
    get(in, values.data(), values.size());
    get(in, factors.data(), factors.size());
    get(in, loadings.data(), loadings.size());
    get(in, meanV.data(), meanV.size());
    fclose(in);

    std::vector<float> normalized(nnz), projected((size_t) nRows * k);
    std::vector<unsigned long long> sum(2 * nCols), sq(2 * nCols), gramSums(2 * nCols);
    std::vector<unsigned long long> upper((size_t) nCols * (nCols + 1));
    for (int r = nRows - 1; r >= 0; r--) {
        normalizeRow(r, indptr.data(), values.data(), factors.data(), normalized.data(), single, lnBase);
    }
    for (long long e = nnz - 1; e >= 0; e--) {
        columnSumsEntry(e, indices.data(), values.data(), f32, eSum, eSq, sum.data(), sq.data());
        gramEntry((int) e, nRows, indptr.data(), indices.data(), values.data(), nCols, eGram, eSum, upper.data(),
                  gramSums.data());
    }
    for (long long t = (long long) nRows * k - 1; t >= 0; t--) {
        projectItem(t, indptr.data(), indices.data(), values.data(), k, loadings.data(), meanV.data(),
                    projected.data());
    }
    FILE *out = fopen(argv[2], "wb");
    put(out, normalized);
    put(out, sum);
    put(out, sq);
    put(out, upper);
    put(out, gramSums);
    put(out, projected);
    fclose(out);
    return 0;
}
