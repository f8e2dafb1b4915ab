/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** The wrapper's own rules: the thread it runs on and the names it accepts. */
class NativeHdf5Test {

    @TempDir
    Path dir;

    @Test
    void theHdf5ThreadIsOneThatMayBlock() {
        assertFalse(Mono.fromCallable(Schedulers::isInNonBlockingThread)
                .subscribeOn(NativeHdf5.THREAD)
                .block());
    }

    @Test
    void namesThatHdf5WouldReadAsPathsAreRejected() {
        assertEquals(
                "/uns: 'a/b' cannot name an HDF5 element (empty, '.' or containing '/')",
                assertThrows(IllegalArgumentException.class, () -> NativeHdf5.child("/uns", "a/b"))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> NativeHdf5.child("/uns", ""));
        assertThrows(IllegalArgumentException.class, () -> NativeHdf5.child("/", "."));
        assertEquals("/X", NativeHdf5.child("/", "X"));
        assertEquals("/uns/ß", NativeHdf5.child("/uns", "ß"));
    }

    @Test
    void aBadUnsKeyFailsTheWriteWithItsPath() {
        AnnData a = AnnData.of(CsrMatrix.of(1, new long[] {0, 0}, new int[0], new float[0]));
        a.uns().put("a/b", 1);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> H5ad.write(a, dir.resolve("x.h5ad")).block());
        assertEquals("/uns: 'a/b' cannot name an HDF5 element (empty, '.' or containing '/')", e.getMessage());
    }
}
