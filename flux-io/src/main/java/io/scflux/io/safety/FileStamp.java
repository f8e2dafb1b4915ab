/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.safety;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/** Size and modification time of a file: what tells that a file is still the one whose layout was read. *
 * <p>Public because the HDF5 layer, the transposed store and the file matrices, each in its own package, notice a
 * changed file by it.
 */
public record FileStamp(long size, long modifiedMillis) {

    public static FileStamp of(Path file) {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return new FileStamp(a.size(), a.lastModifiedTime().toMillis());
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read attributes: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return size + " bytes, modified " + java.time.Instant.ofEpochMilli(modifiedMillis);
    }
}
