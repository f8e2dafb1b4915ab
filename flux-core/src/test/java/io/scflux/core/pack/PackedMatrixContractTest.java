/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.pack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockSource;
import io.scflux.core.PlanTarget;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.BlockSourceContract;
import io.scflux.core.test.Matrices;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** A packed matrix streams back exactly the matrix it was packed from, whatever the plan it is read with. */
class PackedMatrixContractTest {

    private static final CsrMatrix COUNTS = Matrices.random(400, 300, 0.05, 9);

    @Nested
    class PackedInSmallBlocks extends BlockSourceContract {
        @Override
        protected BlockSource source() {
            return PackedMatrix.from(COUNTS, new PlanTarget(500, 37));
        }

        @Override
        protected CsrMatrix expected() {
            return COUNTS;
        }
    }

    @Test
    void smallerThanCsrAndItsOwnPlanUnpacksDirectly() {
        PackedMatrix p = PackedMatrix.from(COUNTS, PlanTarget.DEFAULT);
        assertEquals(COUNTS.nnz(), p.nnz());
        long csr = 8 * COUNTS.nnz() + 4 * (COUNTS.nRows() + 1);
        assertTrue(p.sizeInBytes() * 3 < csr, p.sizeInBytes() + " bytes packed vs " + csr + " as CSR");
        assertEquals(COUNTS.plan(PlanTarget.DEFAULT), p.plan(PlanTarget.DEFAULT));
    }
}
