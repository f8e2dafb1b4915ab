// Host-only check of kernels.cu's 128-bit fixed-point cells, which needs no GPU:
//   nvcc -o /tmp/add128 add128_test.cu && /tmp/add128
// Adds random integer-valued doubles of both signs into cells with add128, in two orders, against __int128 sums.
#include <cstdio>
#include <cmath>
#include <random>
#include "../../main/cuda/kernels.cu"

static __int128 join(unsigned long long l, unsigned long long h) {
    return (__int128) (((unsigned __int128) h << 64) | l);
}

int main() {
    std::mt19937_64 rnd(42);
    int failures = 0;
    for (int round = 0; round < 1000; round++) {
        int e = (int) (rnd() % 110);  // terms below 2^119, sums of 64 below 2^125
        unsigned long long forward[2] = {0, 0}, backward[2] = {0, 0};
        __int128 exact = 0;
        double xs[64];
        for (int i = 0; i < 64; i++) {
            double v = ((double) (rnd() >> 11) / 9007199254740992.0 - 0.5) * 1000;
            xs[i] = rint(ldexp(v, e));
            exact += (__int128) xs[i];
        }
        for (int i = 0; i < 64; i++) {
            add128(forward, xs[i]);
            add128(backward, xs[63 - i]);
        }
        if (join(forward[0], forward[1]) != exact || join(backward[0], backward[1]) != exact) {
            failures++;
        }
    }
    printf("add128: %d failures in 1000 rounds\n", failures);
    return failures != 0;
}
