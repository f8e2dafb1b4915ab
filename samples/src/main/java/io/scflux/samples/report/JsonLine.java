/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/**
 * One line of JSON as scflux prints it ({@code info --json}, {@code bench}, the service's obs rows), written by
 * Jackson: maps in their order, and a non-finite number as {@code null}, since JSON has no NaN (Jackson would quote it).
 */
public final class JsonLine {

    private static final ObjectWriter WRITER = new ObjectMapper()
            .registerModule(new SimpleModule("scflux-finite-numbers")
                    .addSerializer(Double.class, new FiniteOrNull())
                    .addSerializer(Float.class, new FiniteOrNull()))
            .writer();

    private JsonLine() {}

    /** {@code value} (maps, lists, strings, numbers, booleans, null) as one line of JSON. */
    public static String of(Object value) {
        try {
            return WRITER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "no JSON form for " + value.getClass().getName(), e);
        }
    }

    /** A double or float as its double value, or {@code null} when it is NaN or infinite. */
    private static final class FiniteOrNull extends StdSerializer<Number> {

        FiniteOrNull() {
            super(Number.class);
        }

        @Override
        public void serialize(Number value, JsonGenerator out, SerializerProvider provider) throws IOException {
            double d = value.doubleValue();
            if (Double.isFinite(d)) {
                out.writeNumber(d);
            } else {
                out.writeNull();
            }
        }
    }
}
