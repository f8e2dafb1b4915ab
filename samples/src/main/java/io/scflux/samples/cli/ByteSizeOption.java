/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.io.transposed.ByteSize;
import picocli.CommandLine;

/** A size option ({@code --max-body 1M}): {@link ByteSize}'s forms, a usage error naming them otherwise. */
final class ByteSizeOption implements CommandLine.ITypeConverter<Long> {

    @Override
    public Long convert(String value) {
        try {
            return ByteSize.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
