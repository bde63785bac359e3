package io.gmp4j.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gmp4j.TestSupport;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class ClusterConfigTest {
    private static void refused(Supplier<ClusterConfig.Builder> b, String... inMessage) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.get().build());
        for (String s : inMessage) {
            assertTrue(e.getMessage().contains(s), () -> "'" + e.getMessage() + "' lacks '" + s + "'");
        }
    }

    @Test
    void defaultsWorkOnOneMachine() {
        ClusterConfig c = ClusterConfig.builder().build();
        assertEquals("gmp4j", c.clusterName());
        assertEquals("127.0.0.1", c.host());
        assertEquals(5701, c.hazelcastPort());
        assertEquals(List.of("127.0.0.1"), c.members());
        assertEquals(0, c.eventBusPort());
    }

    @Test
    void badSettingsAreRefusedNamingSettingAndValue() {
        refused(() -> ClusterConfig.builder().clusterName(" "), "clusterName", "' '");
        refused(() -> ClusterConfig.builder().hazelcastPort(0), "hazelcastPort", "0");
        refused(() -> ClusterConfig.builder().hazelcastPort(70000), "hazelcastPort", "70000");
        refused(() -> ClusterConfig.builder().eventBusPort(-1), "eventBusPort", "-1");
        refused(() -> ClusterConfig.builder().members(List.of("a b")), "members", "'a b'");
        refused(() -> ClusterConfig.builder().members(List.of("10.0.0.1:99999")), "members", "99999");
        refused(() -> ClusterConfig.builder().members(List.of("10.0.0.1:x")), "members", "'x'");
        refused(() -> ClusterConfig.builder().members(List.of()), "members");
        refused(() -> ClusterConfig.builder().host("192.0.2.77"), "host", "192.0.2.77", "not an address of a local network interface");
        refused(() -> ClusterConfig.builder().joinTimeout(Duration.ZERO), "joinTimeout", "PT0S");
        refused(() -> ClusterConfig.builder().allow(String.class), "allow", "java.lang.String");
    }

    @Test
    void systemPropertiesOverrideTheDefaults() {
        TestSupport.withProperty(ClusterConfig.NAME_PROPERTY, "props", () ->
                TestSupport.withProperty(ClusterConfig.PORT_PROPERTY, "5801", () ->
                        TestSupport.withProperty(ClusterConfig.MEMBERS_PROPERTY, "127.0.0.1:5801, 127.0.0.1:5802", () -> {
                            ClusterConfig c = ClusterConfig.builder().build();
                            assertEquals("props", c.clusterName());
                            assertEquals(5801, c.hazelcastPort());
                            assertEquals(List.of("127.0.0.1:5801", "127.0.0.1:5802"), c.members());
                            assertEquals("other", ClusterConfig.builder().clusterName("other").build().clusterName());
                        })));
        TestSupport.withProperty(ClusterConfig.PORT_PROPERTY, "abc", () -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, ClusterConfig::builder);
            assertTrue(e.getMessage().contains("gmp4j.cluster.port") && e.getMessage().contains("'abc'"), e::getMessage);
        });
        TestSupport.withProperty(ClusterConfig.MEMBERS_PROPERTY, "127.0.0.1:1:2:x", () ->
                refused(ClusterConfig::builder, "members"));
    }
}
