package com.routeregistry.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The matcher against every case of the shared conformance vectors (recorded against Apple's swcutil; the
 * repository's copy in Tests/Conformance) and of the project's own vectors, read from their files.
 */
class VectorsTest {
    private static List<DynamicTest> cases(Path file, String prefix) {
        JSONArray cases = Repo.array(Repo.readObject(file), "cases");
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < cases.length(); i++) {
            JSONObject vector = cases.optJSONObject(i);
            String name = vector.optString("name");
            tests.add(DynamicTest.dynamicTest(prefix + name, () -> {
                AasaMatcher.Outcome got = AasaMatcher.evaluate(vector.optJSONObject("aasa"), vector.optString("appId"),
                        vector.optString("url"), vector.optString("domain"));
                assertEquals(vector.optString("expect"), got.wire, vector.optString("url") + " — " + vector.optString("note"));
            }));
        }
        return tests;
    }

    @TestFactory
    List<DynamicTest> conformanceVectors() {
        return cases(Repo.conformanceVectors(), "shared:");
    }

    @TestFactory
    List<DynamicTest> projectVectors() {
        return cases(Repo.projectVectors(), "project:");
    }

    @Test
    void theRepositorysCopyIsByteIdenticalToTheSharedVectors() throws Exception {
        Path shared = Repo.root().resolve("../shared/conformance/aasa-matching.json").normalize();
        Assumptions.assumeTrue(Files.isRegularFile(shared), "skipped: ../shared/conformance is absent (a clone on its own)");
        assertArrayEquals(Files.readAllBytes(shared), Files.readAllBytes(Repo.conformanceVectors()),
                "Tests/Conformance/aasa-matching.json differs from ../shared: copy it again");
    }

    @Test
    void vectorFilesHaveTheConformanceShape() {
        assertTrue(Repo.array(Repo.readObject(Repo.conformanceVectors()), "cases").length() >= 60);
        List<Path> files = Arrays.asList(Repo.projectVectors(), Repo.conformanceVectors());
        Set<String> names = new HashSet<>();
        for (Path file : files) {
            JSONArray cases = Repo.array(Repo.readObject(file), "cases");
            assertTrue(cases.length() > 0, file + " has cases");
            for (int i = 0; i < cases.length(); i++) {
                JSONObject vector = cases.optJSONObject(i);
                for (String key : new String[] {"name", "aasa", "appId", "url", "domain", "expect"}) {
                    assertTrue(vector.has(key), file + " case " + i + " has " + key);
                }
                assertTrue(names.add(file.getFileName() + ":" + vector.optString("name")), "unique names");
            }
        }
    }
}
