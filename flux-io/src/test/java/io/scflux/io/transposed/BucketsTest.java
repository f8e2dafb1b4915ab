/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.transposed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The row ranges the transposed store spills a CSC matrix by. */
class BucketsTest {

    @Test
    void bucketsRespectTheBoundExceptForSingleLargeRows() {
        long[] rowptr = {0, 5, 10, 40, 41, 42, 60};
        long[] b = TransposedStore.buckets(rowptr, 10);
        assertEquals(List.of(0L, 2L, 3L, 5L, 6L), Arrays.stream(b).boxed().collect(Collectors.toList()));
    }

    /** 3000 rows of 300 entries under a bound of 40,000: 133 rows a bucket, so 23 buckets (24 boundaries). */
    @Test
    void aMatrixLargerThanTheBoundIsSpilledInManyBuckets() {
        long[] rowptr = new long[3001];
        Arrays.setAll(rowptr, r -> 300L * r);
        assertEquals(24, TransposedStore.buckets(rowptr, 40_000).length);
    }
}
