#!/usr/bin/env python3
"""Payloads no corpus holds, for a by-eye probe of the lean views (JUDGING.md).

Writes ~90 tool outputs in real tools' formats (kubectl, docker, journalctl,
mvn, tsc, ruff, golangci-lint, terraform, aws cli, ps, df, iostat, kafka, git
blame, ...), each with a needle an agent would look for, into OUTDIR (default
./probe-in), and OUTDIR/needles.json naming each needle. Deterministic (fixed
seed). Then, for each file: `caveman-engine compress --profile lean < FILE`
and grade the view by the rubric.

    python3 bench/probe.py [OUTDIR]
"""
import json, os, random, sys, datetime as dt

R = random.Random(20261207)
OUT = sys.argv[1] if len(sys.argv) > 1 else "probe-in"
os.makedirs(OUT, exist_ok=True)
NEEDLES = {}


def w(name, text, needle):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)
    NEEDLES[name] = needle


def hexs(n):
    return "".join(R.choice("0123456789abcdef") for _ in range(n))


def rid(n=5):
    return "".join(R.choice("bcdfghjklmnpqrstvwxz2456789") for _ in range(n))


T0 = dt.datetime(2026, 12, 5, 9, 14, 3)


def ts(i, step=0.37):
    return T0 + dt.timedelta(seconds=i * step)


SVCS = ["api-gateway", "orders", "payments", "inventory", "auth", "notifier", "search", "billing", "catalog", "cart"]
USERS = ["alice", "bob", "carol", "dave", "erin"]
PATHS = ["/api/v1/orders", "/api/v1/cart", "/api/v1/items/{}", "/healthz", "/api/v1/users/{}", "/static/app.js", "/api/v1/search?q={}"]

# ---------------- kubernetes ----------------

def kubectl_describe_pod():
    L = []
    name = "payments-7d9f8c6b5-x2k4q"
    L += [f"Name:             {name}", "Namespace:        prod", "Priority:         0", "Service Account:  payments",
          "Node:             ip-10-0-3-41.ec2.internal/10.0.3.41", "Start Time:       Sat, 05 Dec 2026 08:02:11 +0000",
          "Labels:           app=payments", "                  pod-template-hash=7d9f8c6b5", "                  team=checkout",
          "Annotations:      kubectl.kubernetes.io/restartedAt: 2026-12-05T08:01:58Z",
          "                  prometheus.io/port: 9102", "                  prometheus.io/scrape: true",
          "Status:           Running", "IP:               10.0.3.177", "IPs:", "  IP:           10.0.3.177",
          "Controlled By:  ReplicaSet/payments-7d9f8c6b5", "Init Containers:", "  migrate:",
          "    Container ID:  containerd://" + hexs(64), "    Image:         registry.example.com/payments-migrate:2.14.1",
          "    Image ID:      registry.example.com/payments-migrate@sha256:" + hexs(64), "    Port:          <none>",
          "    Host Port:     <none>", "    Command:", "      /app/migrate", "      --up", "    State:          Terminated",
          "      Reason:       Completed", "      Exit Code:    0", "      Started:      Sat, 05 Dec 2026 08:02:14 +0000",
          "      Finished:     Sat, 05 Dec 2026 08:02:19 +0000", "    Ready:          True", "    Restart Count:  0",
          "    Environment:", "      DATABASE_URL:  <set to the key 'url' in secret 'payments-db'>  Optional: false",
          "    Mounts:", "      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-8xk2p (ro)", "Containers:"]
    for c, img, st in [("payments", "registry.example.com/payments:2.14.1", "crash"), ("envoy", "envoyproxy/envoy:v1.28.0", "ok")]:
        L += [f"  {c}:", "    Container ID:  containerd://" + hexs(64), f"    Image:         {img}",
              "    Image ID:      docker.io/library/x@sha256:" + hexs(64),
              "    Port:          8080/TCP" if c == "payments" else "    Port:          9901/TCP", "    Host Port:     0/TCP"]
        if st == "crash":
            L += ["    Args:", "      --config=/etc/payments/config.yaml", "      --workers=8",
                  "    State:          Waiting", "      Reason:       CrashLoopBackOff", "    Last State:     Terminated",
                  "      Reason:       OOMKilled", "      Exit Code:    137", "      Started:      Sat, 05 Dec 2026 09:11:02 +0000",
                  "      Finished:     Sat, 05 Dec 2026 09:13:40 +0000", "    Ready:          False", "    Restart Count:  14",
                  "    Limits:", "      cpu:     1", "      memory:  512Mi", "    Requests:", "      cpu:      250m", "      memory:   256Mi",
                  "    Liveness:   http-get http://:8080/healthz delay=10s timeout=1s period=10s #success=1 #failure=3",
                  "    Readiness:  http-get http://:8080/ready delay=5s timeout=1s period=5s #success=1 #failure=3", "    Environment:"]
            for k in ["LOG_LEVEL", "PORT", "REDIS_URL", "KAFKA_BROKERS", "STRIPE_API_BASE", "FEATURE_FLAGS", "OTEL_EXPORTER_OTLP_ENDPOINT",
                      "GOMAXPROCS", "JAVA_OPTS", "TZ", "REGION", "CACHE_TTL", "MAX_BATCH", "RETRY_LIMIT"]:
                L.append(f"      {k}:  {R.choice(['info','8080','redis://redis:6379/0','kafka-0:9092,kafka-1:9092','https://api.stripe.com','a,b,c','http://otel:4317','2','-Xmx384m','UTC','us-east-1','300','500','5'])}")
        else:
            L += ["    State:          Running", "      Started:      Sat, 05 Dec 2026 08:02:20 +0000", "    Ready:          True",
                  "    Restart Count:  0", "    Environment:    <none>"]
        L += ["    Mounts:", "      /etc/payments from config (ro)", "      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-8xk2p (ro)"]
    L += ["Conditions:", "  Type              Status", "  Initialized       True ", "  Ready             False ",
          "  ContainersReady   False ", "  PodScheduled      True ", "Volumes:", "  config:", "    Type:      ConfigMap (a volume populated by a ConfigMap)",
          "    Name:      payments-config", "    Optional:  false", "  kube-api-access-8xk2p:",
          "    Type:                    Projected (a volume that contains injected data from multiple sources)",
          "    TokenExpirationSeconds:  3607", "    ConfigMapName:           kube-root-ca.crt", "    DownwardAPI:             true",
          "QoS Class:                   Burstable", "Node-Selectors:              <none>",
          "Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s",
          "                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s", "Events:",
          "  Type     Reason     Age                  From     Message", "  ----     ------     ----                 ----     -------",
          "  Normal   Pulled     12m (x14 over 71m)   kubelet  Container image \"registry.example.com/payments:2.14.1\" already present on machine",
          "  Normal   Created    12m (x14 over 71m)   kubelet  Created container payments",
          "  Normal   Started    12m (x14 over 71m)   kubelet  Started container payments",
          "  Warning  Unhealthy  11m (x9 over 70m)    kubelet  Liveness probe failed: Get \"http://10.0.3.177:8080/healthz\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
          "  Warning  BackOff    2m (x301 over 69m)   kubelet  Back-off restarting failed container payments in pod payments-7d9f8c6b5-x2k4q_prod(" + hexs(8) + ")"]
    w("kubectl_describe_pod.txt", "\n".join(L) + "\n", "CrashLoopBackOff, OOMKilled exit 137, limit 512Mi")


def kubectl_get_events():
    L = ["LAST SEEN   TYPE      REASON              OBJECT                                   MESSAGE"]
    for i in range(420):
        s = R.choice(SVCS)
        pod = f"pod/{s}-{hexs(9)}-{rid()}"
        r, m = R.choice([("Scheduled", "Successfully assigned prod/{p} to ip-10-0-{a}-{b}.ec2.internal"),
                         ("Pulled", "Container image \"registry.example.com/{s}:1.{a}.0\" already present on machine"),
                         ("Created", "Created container {s}"), ("Started", "Started container {s}"),
                         ("Killing", "Stopping container {s}"), ("SuccessfulCreate", "Created pod: {p}")])
        L.append(f"{R.randint(1,59)}m{'':<8}"[:12] + f"{'Normal':<10}{r:<20}{pod:<41}{m.format(p=pod[4:], s=s, a=R.randint(0,9), b=R.randint(2,250))}")
        if i == 311:
            L.append(f"{'7m':<12}{'Warning':<10}{'FailedScheduling':<20}{'pod/search-7f8d9c5b4-qq2lm':<41}0/12 nodes are available: 3 Insufficient memory, 9 node(s) had untolerated taint {{node-role.kubernetes.io/control-plane: }}. preemption: 0/12 nodes are available: 12 No preemption victims found for incoming pod.")
        if i == 150:
            L.append(f"{'31m':<12}{'Warning':<10}{'FailedMount':<20}{'pod/billing-5c6d7e8f9-abcde':<41}MountVolume.SetUp failed for volume \"billing-secrets\" : secret \"billing-stripe\" not found")
    w("kubectl_get_events.txt", "\n".join(L) + "\n", "FailedScheduling Insufficient memory; FailedMount secret not found")


def kubectl_get_pods():
    L = ["NAME                                READY   STATUS             RESTARTS        AGE   IP            NODE                         NOMINATED NODE   READINESS GATES"]
    for i in range(260):
        s = R.choice(SVCS)
        n = f"{s}-{hexs(9)}-{rid()}"
        st, rs, rd = "Running", str(R.choice([0, 0, 0, 1, 2])), "1/1"
        if i == 173:
            st, rs, rd = "CrashLoopBackOff", "14 (2m ago)", "0/1"
            n = "payments-7d9f8c6b5-x2k4q"
        if i == 40:
            st, rs, rd = "ImagePullBackOff", "0", "0/1"
            n = "catalog-6b7c8d9e0-pz9mk"
        L.append(f"{n:<36}{rd:<8}{st:<19}{rs:<16}{R.randint(1,40)}d   10.0.{R.randint(0,7)}.{R.randint(2,250):<4}  ip-10-0-{R.randint(0,7)}-{R.randint(2,250)}.ec2.internal   <none>           <none>")
    w("kubectl_get_pods_wide.txt", "\n".join(L) + "\n", "CrashLoopBackOff payments, ImagePullBackOff catalog")


def kubectl_top_pods():
    L = ["NAME                                      CPU(cores)   MEMORY(bytes)   "]
    rows = []
    for i in range(180):
        s = R.choice(SVCS)
        rows.append((f"{s}-{hexs(9)}-{rid()}", f"{R.randint(1,120)}m", f"{R.randint(20,180)}Mi"))
    rows[97] = ("search-indexer-6f7d8c9b-k2j3h", "1870m", "3412Mi")
    rows[12] = ("orders-5f6a7b8c9-zz0a1", "12m", "1187Mi")
    for n, c, m in rows:
        L.append(f"{n:<42}{c:<13}{m:<16}")
    w("kubectl_top_pods.txt", "\n".join(L) + "\n", "search-indexer 1870m 3412Mi; orders 1187Mi")


def helm_template():
    docs = []
    for s in SVCS:
        docs.append(f"""---
# Source: platform/templates/{s}-deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {s}
  labels:
    app.kubernetes.io/name: {s}
    app.kubernetes.io/instance: platform
    app.kubernetes.io/managed-by: Helm
    helm.sh/chart: platform-3.2.1
spec:
  replicas: {R.choice([2,3,4])}
  selector:
    matchLabels:
      app.kubernetes.io/name: {s}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: {s}
      annotations:
        checksum/config: {hexs(64)}
    spec:
      serviceAccountName: {s}
      securityContext:
        runAsNonRoot: true
        runAsUser: 10001
      containers:
        - name: {s}
          image: "registry.example.com/{s}:{'1.%d.%d' % (R.randint(0,9), R.randint(0,20)) if s != 'billing' else 'latest'}"
          imagePullPolicy: IfNotPresent
          args:
            - --port=8080
            - --log-format=json
          ports:
            - name: http
              containerPort: 8080
              protocol: TCP
          env:
            - name: SERVICE_NAME
              value: "{s}"
            - name: DATABASE_URL
              valueFrom:
                secretKeyRef:
                  name: {s}-db
                  key: url
            - name: LOG_LEVEL
              value: "info"
          livenessProbe:
            httpGet:
              path: /healthz
              port: http
          readinessProbe:
            httpGet:
              path: /ready
              port: http
          resources:
            limits:
              cpu: 500m
              memory: {'2Gi' if s == 'search' else '512Mi'}
            requests:
              cpu: 100m
              memory: 128Mi
""")
        docs.append(f"""---
# Source: platform/templates/{s}-service.yaml
apiVersion: v1
kind: Service
metadata:
  name: {s}
  labels:
    app.kubernetes.io/name: {s}
spec:
  type: ClusterIP
  ports:
    - port: 80
      targetPort: http
      protocol: TCP
      name: http
  selector:
    app.kubernetes.io/name: {s}
""")
    docs.append("""---
# Source: platform/templates/ingress.yaml
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: platform
  annotations:
    cert-manager.io/cluster-issuer: letsencrypt
spec:
  ingressClassName: nginx
  tls:
    - hosts: [shop.example.com]
      secretName: shop-tls
  rules:
    - host: shop.example.com
      http:
        paths:
""" + "".join(f"""          - path: /{s}
            pathType: Prefix
            backend:
              service:
                name: {s}
                port:
                  number: 80
""" for s in SVCS))
    w("helm_template.yaml", "".join(docs), "billing image :latest; search memory 2Gi; each Deployment's image")


def deploy_yaml():
    s = "orders"
    env = "".join(f"        - name: {k}\n          value: \"{v}\"\n" for k, v in [("PORT", "8080"), ("LOG_LEVEL", "debug"), ("DB_POOL", "20"), ("KAFKA_TOPIC", "orders.v2"), ("FEATURE_X", "true"), ("TIMEOUT_MS", "2500"), ("REGION", "eu-west-1"), ("CACHE", "redis"), ("RETRIES", "3"), ("OTEL", "on"), ("TZ", "UTC"), ("MODE", "prod")])
    txt = f"""apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    deployment.kubernetes.io/revision: "42"
    kubectl.kubernetes.io/last-applied-configuration: |
      {json.dumps({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"orders","namespace":"prod"},"spec":{"replicas":3}})}
  creationTimestamp: "2026-03-01T10:00:00Z"
  generation: 57
  labels:
    app: orders
  name: orders
  namespace: prod
  resourceVersion: "918273645"
  uid: {hexs(8)}-{hexs(4)}-{hexs(4)}-{hexs(4)}-{hexs(12)}
spec:
  progressDeadlineSeconds: 600
  replicas: 3
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app: orders
  strategy:
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 25%
    type: RollingUpdate
  template:
    metadata:
      labels:
        app: orders
    spec:
      containers:
      - name: orders
        image: registry.example.com/orders:3.8.0
        imagePullPolicy: IfNotPresent
        command: ["/app/orders"]
        args: ["serve", "--grpc-port=9090"]
        env:
{env}        ports:
        - containerPort: 8080
          name: http
          protocol: TCP
        - containerPort: 9090
          name: grpc
          protocol: TCP
        resources:
          limits:
            memory: 1Gi
          requests:
            cpu: 200m
            memory: 512Mi
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      terminationGracePeriodSeconds: 30
status:
  availableReplicas: 2
  conditions:
  - lastTransitionTime: "2026-12-05T08:00:00Z"
    lastUpdateTime: "2026-12-05T08:00:00Z"
    message: Deployment does not have minimum availability.
    reason: MinimumReplicasUnavailable
    status: "False"
    type: Available
  - lastTransitionTime: "2026-12-05T08:10:00Z"
    lastUpdateTime: "2026-12-05T08:10:00Z"
    message: ReplicaSet "orders-5f6a7b8c9" has timed out progressing.
    reason: ProgressDeadlineExceeded
    status: "False"
    type: Progressing
  observedGeneration: 57
  readyReplicas: 2
  replicas: 3
  unavailableReplicas: 1
  updatedReplicas: 1
"""
    w("kubectl_get_deploy.yaml", txt, "ProgressDeadlineExceeded, unavailableReplicas 1, image, env names")

# ---------------- logs ----------------

def compose_logs():
    L = []
    cols = {"web": 36, "db": 33, "redis": 31, "worker": 35}
    for i in range(1600):
        s = R.choice(["web", "web", "web", "worker", "worker", "db", "redis"])
        t = ts(i).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        if s == "web":
            m = f'{t} INFO  [gunicorn] 172.18.0.{R.randint(2,9)} - "GET {R.choice(PATHS).format(R.randint(1,999))} HTTP/1.1" 200 {R.randint(200,9000)} {R.randint(2,90)}ms'
        elif s == "worker":
            m = f'{t} [celery] INFO Task tasks.send_email[{hexs(8)}-{hexs(4)}] succeeded in {R.random():.3f}s: None'
        elif s == "db":
            m = f'{t} UTC [{R.randint(60,99)}] LOG:  checkpoint complete: wrote {R.randint(3,80)} buffers ({R.random():.1f}%); 0 WAL file(s) added, 0 removed, 1 recycled'
        else:
            m = f"1:M {ts(i).strftime('%d %b %Y %H:%M:%S')}.{R.randint(100,999)} * {R.randint(1,100)} changes in 300 seconds. Saving..."
        L.append(f"{s}-1{' ' * (7 - len(s))}| {m}")
        if i == 1207:
            t2 = t
            L.append(f"db-1     | {t2} UTC [88] ERROR:  duplicate key value violates unique constraint \"orders_external_id_key\"")
            L.append(f"db-1     | {t2} UTC [88] DETAIL:  Key (external_id)=(ord_8F2k1) already exists.")
            L.append(f"db-1     | {t2} UTC [88] STATEMENT:  INSERT INTO orders (external_id, total) VALUES ($1, $2)")
            L.append(f"web-1    | {t2} ERROR [app.orders] IntegrityError while creating order ord_8F2k1")
            L.append("web-1    | Traceback (most recent call last):")
            L.append('web-1    |   File "/app/app/orders/views.py", line 88, in create_order')
            L.append("web-1    |     order.save()")
            L.append('web-1    |   File "/usr/local/lib/python3.12/site-packages/django/db/models/base.py", line 814, in save')
            L.append("web-1    |     self.save_base(")
            L.append("web-1    | django.db.utils.IntegrityError: duplicate key value violates unique constraint \"orders_external_id_key\"")
    L.append("worker-1 exited with code 137")
    w("docker_compose_logs.txt", "\n".join(L) + "\n", "IntegrityError duplicate key ord_8F2k1 with traceback; worker exited 137")


def journalctl():
    L = []
    units = [("systemd[1]", "Started Session {n} of User {u}."), ("sshd[{p}]", "Accepted publickey for {u} from 10.0.{a}.{b} port {n} ssh2: ED25519 SHA256:" + "x" * 10),
             ("CRON[{p}]", "(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)"), ("kernel", "audit: type=1400 audit({n}.123:{a}): apparmor=\"ALLOWED\" operation=\"open\""),
             ("dockerd[{p}]", "time=\"2026-12-05T09:{a:02d}:00Z\" level=info msg=\"ignoring event\" module=libcontainerd namespace=moby topic=/tasks/delete"),
             ("systemd-logind[{p}]", "New session {n} of user {u}.")]
    for i in range(2400):
        u, m = R.choice(units)
        t = ts(i, 1.7).strftime("%b %d %H:%M:%S")
        L.append(f"{t} web-03 {u.format(p=R.randint(300,40000))}: {m.format(n=R.randint(1000,99999), u=R.choice(USERS), a=R.randint(0,59), b=R.randint(1,254), p=1)}")
        if i == 1833:
            L.append(f"{t} web-03 kernel: myapp[23117]: segfault at 0 ip 000055d1c2a4b3f0 sp 00007ffd3c1a2e80 error 4 in myapp[55d1c2a00000+1c000]")
            L.append(f"{t} web-03 systemd[1]: myapp.service: Main process exited, code=killed, status=11/SEGV")
            L.append(f"{t} web-03 systemd[1]: myapp.service: Failed with result 'signal'.")
            L.append(f"{t} web-03 systemd[1]: myapp.service: Scheduled restart job, restart counter is at 3.")
    w("journalctl.txt", "\n".join(L) + "\n", "myapp segfault status=11/SEGV")


def nginx_error():
    L = []
    for i in range(900):
        t = ts(i, 4).strftime("%Y/%m/%d %H:%M:%S")
        k = R.random()
        if k < 0.6:
            L.append(f"{t} [notice] {R.randint(1000,1100)}#{R.randint(1000,1100)}: *{R.randint(10000,999999)} client {R.randint(1,250)}.{R.randint(1,250)}.{R.randint(1,250)}.{R.randint(1,250)} closed keepalive connection")
        elif k < 0.9:
            L.append(f"{t} [info] {R.randint(1000,1100)}#{R.randint(1000,1100)}: *{R.randint(10000,999999)} client timed out (110: Connection timed out) while waiting for request, client: 10.1.{R.randint(1,9)}.{R.randint(1,250)}, server: 0.0.0.0:443")
        else:
            L.append(f"{t} [warn] {R.randint(1000,1100)}#{R.randint(1000,1100)}: *{R.randint(10000,999999)} an upstream response is buffered to a temporary file /var/cache/nginx/proxy_temp/{R.randint(1,9)}/{R.randint(10,99)}/00000{R.randint(10000,99999)} while reading upstream, client: 10.1.2.3, server: shop.example.com, request: \"GET /api/v1/export HTTP/1.1\", upstream: \"http://10.0.2.14:8080/api/v1/export\", host: \"shop.example.com\"")
        if i == 640:
            for j in range(3):
                L.append(f"{t} [error] 1042#1042: *{884120+j} connect() failed (111: Connection refused) while connecting to upstream, client: 203.0.113.{7+j}, server: shop.example.com, request: \"POST /api/v1/checkout HTTP/1.1\", upstream: \"http://10.0.2.19:8080/api/v1/checkout\", host: \"shop.example.com\"")
    w("nginx_error.log", "\n".join(L) + "\n", "3x connect() failed 111 upstream 10.0.2.19 checkout")


def nginx_access():
    L = []
    for i in range(3000):
        t = ts(i, 0.9).strftime("%d/%b/%Y:%H:%M:%S +0000")
        p = R.choice(PATHS).format(R.randint(1, 999))
        st = R.choice([200] * 30 + [304, 301, 404])
        if i in (2201, 2202, 2203, 2204):
            st, p = 502, "/api/v1/checkout"
        L.append(f'{R.randint(1,223)}.{R.randint(0,255)}.{R.randint(0,255)}.{R.randint(1,254)} - - [{t}] "{"POST" if st==502 else "GET"} {p} HTTP/1.1" {st} {R.randint(0,20000) if st!=502 else 157} "-" "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36" {R.random()*0.3:.3f}')
    w("nginx_access.log", "\n".join(L) + "\n", "4x 502 on POST /api/v1/checkout")


def postgres_log():
    L = []
    for i in range(1200):
        t = ts(i, 2).strftime("%Y-%m-%d %H:%M:%S.") + f"{R.randint(0,999):03d} UTC"
        pid = R.randint(1000, 9999)
        k = R.random()
        if k < 0.5:
            L.append(f"{t} [{pid}] app@shop LOG:  duration: {R.uniform(0.1,40):.3f} ms  statement: SELECT id, total FROM orders WHERE customer_id = {R.randint(1,99999)}")
        elif k < 0.8:
            L.append(f"{t} [{pid}] LOG:  connection received: host=10.0.{R.randint(0,9)}.{R.randint(1,250)} port={R.randint(30000,60000)}")
        else:
            L.append(f"{t} [{pid}] LOG:  connection authorized: user=app database=shop application_name=orders SSL enabled (protocol=TLSv1.3, cipher=TLS_AES_256_GCM_SHA384, bits=256)")
        if i == 901:
            L += [f"{t} [4411] app@shop ERROR:  deadlock detected",
                  f"{t} [4411] app@shop DETAIL:  Process 4411 waits for ShareLock on transaction 99182731; blocked by process 4420.",
                  "\tProcess 4420 waits for ShareLock on transaction 99182729; blocked by process 4411.",
                  "\tProcess 4411: UPDATE inventory SET qty = qty - 1 WHERE sku = 'SKU-1182'",
                  "\tProcess 4420: UPDATE inventory SET qty = qty - 1 WHERE sku = 'SKU-0077'",
                  f"{t} [4411] app@shop HINT:  See server log for query details.",
                  f"{t} [4411] app@shop CONTEXT:  while updating tuple (1842,17) in relation \"inventory\"",
                  f"{t} [4411] app@shop STATEMENT:  UPDATE inventory SET qty = qty - 1 WHERE sku = 'SKU-1182'"]
        if i == 1100:
            L.append(f"{t} [812] LOG:  duration: 48213.902 ms  statement: SELECT * FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.created_at > now() - interval '90 days'")
    w("postgres.log", "\n".join(L) + "\n", "deadlock detected with DETAIL; slow query 48213 ms")


def app_python_log():
    L = []
    for i in range(1800):
        t = ts(i, 0.8).strftime("%Y-%m-%d %H:%M:%S,") + f"{R.randint(0,999):03d}"
        L.append(f"{t} INFO [worker-{R.randint(1,8)}] tasks.sync: synced {R.randint(1,500)} records from shard {R.randint(0,15)} in {R.randint(20,900)}ms")
        if i % 97 == 3:
            L.append(f"{t} WARNING [worker-{R.randint(1,8)}] urllib3.connectionpool: Retrying (Retry(total=2, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='api.partner.io', port=443): Read timed out. (read timeout=10)\")': /v2/items")
        if i == 1401:
            L += [f"{t} ERROR [worker-3] tasks.sync: sync failed for shard 7", "Traceback (most recent call last):",
                  '  File "/srv/app/tasks/sync.py", line 142, in run_shard', "    rows = transform(batch)",
                  '  File "/srv/app/tasks/transform.py", line 57, in transform', "    price = Decimal(row[\"price\"]) * rate",
                  "KeyError: 'price'"]
    w("app_python.log", "\n".join(L) + "\n", "KeyError 'price' transform.py:57 shard 7")


def app_java_log():
    L = []
    for i in range(1500):
        t = ts(i, 0.5).strftime("%Y-%m-%d %H:%M:%S.") + f"{R.randint(0,999):03d}"
        L.append(f"{t}  INFO 1 --- [nio-8080-exec-{R.randint(1,10)}] c.e.shop.web.RequestLoggingFilter       : GET /api/v1/items/{R.randint(1,999)} 200 {R.randint(2,80)}ms")
        if i == 1222:
            L += [f"{t} ERROR 1 --- [nio-8080-exec-4] o.a.c.c.C.[.[.[/].[dispatcherServlet]    : Servlet.service() for servlet [dispatcherServlet] in context with path [] threw exception [Request processing failed: java.lang.NullPointerException: Cannot invoke \"com.example.shop.model.Customer.getTier()\" because \"customer\" is null] with root cause",
                  "", "java.lang.NullPointerException: Cannot invoke \"com.example.shop.model.Customer.getTier()\" because \"customer\" is null",
                  "\tat com.example.shop.pricing.PricingService.discountFor(PricingService.java:87) ~[classes/:na]",
                  "\tat com.example.shop.pricing.PricingService.quote(PricingService.java:41) ~[classes/:na]",
                  "\tat com.example.shop.web.CartController.checkout(CartController.java:63) ~[classes/:na]"]
            L += [f"\tat {R.choice(['org.springframework.web.servlet','org.apache.catalina.core','org.apache.tomcat.util.net','jdk.internal.reflect','java.base/java.lang.reflect'])}.{R.choice(['Invoker','Filter','Handler','Valve'])}{k}.invoke{R.choice(['','0','Internal'])}({R.choice(['Method.java','FrameworkServlet.java','StandardWrapperValve.java'])}:{R.randint(50,900)}) ~[na:na]" for k in range(48)]
            L.append("\tat java.base/java.lang.Thread.run(Thread.java:1583) ~[na:na]")
    w("app_java.log", "\n".join(L) + "\n", "NPE customer is null PricingService.java:87")


def go_panic():
    L = []
    for i in range(700):
        t = ts(i, 0.3).strftime("%Y-%m-%dT%H:%M:%S.") + f"{R.randint(0,999999):06d}Z"
        L.append(f'{{"level":"info","ts":"{t}","caller":"server/handler.go:{R.randint(40,200)}","msg":"request done","method":"GET","path":"{R.choice(PATHS).format(R.randint(1,99))}","status":200,"duration_ms":{R.randint(1,90)},"trace_id":"{hexs(32)}"}}')
    L += ["panic: runtime error: index out of range [3] with length 3", "", "goroutine 87 [running]:",
          "github.com/example/shop/internal/cart.(*Cart).ApplyCoupon(0xc0001a2000, {0xc00012c0f0, 0x8})",
          "\t/src/internal/cart/cart.go:142 +0x2d4", "github.com/example/shop/internal/server.(*Handler).Checkout(0xc000118000, {0x1029f40, 0xc0002a4000}, 0xc00022c100)",
          "\t/src/internal/server/handler.go:88 +0x1a5", "net/http.HandlerFunc.ServeHTTP(0x0?, {0x1029f40?, 0xc0002a4000?}, 0x0?)",
          "\t/usr/local/go/src/net/http/server.go:2171 +0x29", "net/http.serverHandler.ServeHTTP({0xc000144000?}, {0x1029f40?, 0xc0002a4000?}, 0xc00022c100)",
          "\t/usr/local/go/src/net/http/server.go:3142 +0x8e", "created by net/http.(*Server).Serve in goroutine 1",
          "\t/usr/local/go/src/net/http/server.go:3290 +0x4b4", "exit status 2"]
    w("go_panic.log", "\n".join(L) + "\n", "panic index out of range cart.go:142")


def rust_panic():
    L = []
    for i in range(400):
        t = ts(i, 0.6).strftime("%Y-%m-%dT%H:%M:%S.") + f"{R.randint(0,999999):06d}Z"
        L.append(f"{t}  INFO ingest::pipeline: batch committed batch_id={R.randint(1000,99999)} rows={R.randint(100,5000)} lag_ms={R.randint(1,300)}")
        if i == 250:
            L.append(f"{t}  WARN ingest::kafka: consumer lag above threshold partition=7 lag=120331")
    L += ["thread 'tokio-runtime-worker' panicked at src/pipeline/decode.rs:211:37:",
          "called `Result::unwrap()` on an `Err` value: Utf8Error { valid_up_to: 17, error_len: Some(1) }",
          "stack backtrace:"]
    frames = ["std::panicking::begin_panic_handler", "core::panicking::panic_fmt", "core::result::unwrap_failed", "ingest::pipeline::decode::decode_record",
              "ingest::pipeline::Pipeline::run::{{closure}}", "tokio::runtime::task::core::Core<T,S>::poll", "tokio::runtime::task::harness::poll_future",
              "tokio::runtime::scheduler::multi_thread::worker::Context::run_task", "tokio::runtime::scheduler::multi_thread::worker::run",
              "std::sys::pal::unix::thread::Thread::new::thread_start"]
    for k, f in enumerate(frames):
        L.append(f"  {k:>2}: {f}")
        if f.startswith("ingest"):
            L.append(f"             at ./src/pipeline/{'decode.rs:211:37' if 'decode' in f else 'mod.rs:88:22'}")
        else:
            L.append(f"             at /rustc/{hexs(40)}/library/{R.choice(['std','core'])}/src/{R.choice(['panicking.rs','result.rs','rt.rs'])}:{R.randint(50,700)}:{R.randint(5,40)}")
    L.append("note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.")
    w("rust_panic.log", "\n".join(L) + "\n", "panic decode.rs:211 Utf8Error; WARN lag partition 7")


def node_log():
    L = []
    for i in range(1100):
        t = ts(i, 0.4).isoformat(timespec="milliseconds") + "Z"
        L.append(json.dumps({"level": 30, "time": int(ts(i, .4).timestamp() * 1000), "pid": 19, "hostname": "api-7c9", "reqId": f"req-{i:x}", "msg": "request completed", "res": {"statusCode": 200}, "responseTime": round(R.uniform(1, 60), 2)}, separators=(",", ":")))
        if i == 777:
            L.append(json.dumps({"level": 50, "time": int(ts(i, .4).timestamp() * 1000), "pid": 19, "hostname": "api-7c9", "reqId": f"req-{i:x}", "err": {"type": "TypeError", "message": "Cannot read properties of undefined (reading 'currency')", "stack": "TypeError: Cannot read properties of undefined (reading 'currency')\n    at formatPrice (/app/src/lib/money.js:23:31)\n    at /app/src/routes/cart.js:71:18\n    at Array.map (<anonymous>)\n    at cartHandler (/app/src/routes/cart.js:69:30)"}, "msg": "request errored"}, separators=(",", ":")))
    L.append("node:internal/process/promises:289")
    L.append("            triggerUncaughtException(err, true /* fromPromise */);")
    L.append("            ^")
    L.append("")
    L.append("Error: connect ECONNREFUSED 127.0.0.1:6379")
    L.append("    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1595:16) {")
    L.append("  errno: -111,\n  code: 'ECONNREFUSED',\n  syscall: 'connect',\n  address: '127.0.0.1',\n  port: 6379\n}")
    L.append("")
    L.append("Node.js v20.11.1")
    w("node_app.log", "\n".join(L) + "\n", "TypeError currency money.js:23; ECONNREFUSED 6379 crash")


def dmesg():
    L = []
    for i in range(600):
        t = f"[{i*13.37+R.random():12.6f}]"
        L.append(f"{t} {R.choice(['IPv6: ADDRCONF(NETDEV_CHANGE): veth' + hexs(7) + ': link becomes ready', 'docker0: port 3(veth' + hexs(7) + ') entered forwarding state', 'EXT4-fs (nvme1n1): mounted filesystem with ordered data mode. Quota mode: none.', 'audit: type=1400 audit(1701767000.123:' + str(R.randint(100,999)) + '): apparmor=STATUS'])}")
        if i == 455:
            L += [f"{t} java invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0",
                  f"{t} CPU: 3 PID: 18231 Comm: java Not tainted 6.5.0-1014-aws #14-Ubuntu",
                  f"{t} Mem-Info:", f"{t} active_anon:1982331 inactive_anon:12011 isolated_anon:0",
                  f"{t} oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=docker-{hexs(12)}.scope,mems_allowed=0,oom_memcg=/system.slice/docker-{hexs(12)}.scope,task=java,pid=18231,uid=1000",
                  f"{t} Memory cgroup out of memory: Killed process 18231 (java) total-vm:9823412kB, anon-rss:7912340kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:16112kB oom_score_adj:0"]
    w("dmesg.txt", "\n".join(L) + "\n", "OOM killed java pid 18231")


def syslog_noise_unique():
    # identical-but-timestamp warn lines, plus one unique config reload
    L = []
    for i in range(1500):
        t = ts(i, 1).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        L.append(f"{t} WARN notifier: failed to deliver webhook to https://hooks.partner.io/v1/events: 429 Too Many Requests (retry_after=30s)")
        if i == 1200:
            L.append(f"{t} INFO notifier: configuration reloaded: webhook_rate_limit 50 -> 5 (changed by deploy 8f2c1a)")
    w("notifier_repeat.log", "\n".join(L) + "\n", "config reload rate limit 50->5 before 429s")

# ---------------- build / lint / test ----------------

def mvn_fail():
    L = ["[INFO] Scanning for projects...", "[INFO] ------------------------------------------------------------------------", "[INFO] Reactor Build Order:", "[INFO]"]
    mods = ["shop-parent", "shop-common", "shop-model", "shop-pricing", "shop-web", "shop-app"]
    L += [f"[INFO] {m:<40} [{'pom' if m=='shop-parent' else 'jar'}]" for m in mods]
    for m in mods[:4]:
        L += ["[INFO]", f"[INFO] ---------------------< com.example:{m} >---------------------", f"[INFO] Building {m} 1.4.0-SNAPSHOT", "[INFO] --------------------------------[ jar ]---------------------------------"]
        for _ in range(R.randint(30, 70)):
            L.append(f"[INFO] Downloading from central: https://repo.maven.apache.org/maven2/org/{R.choice(['apache','springframework','slf4j'])}/{rid(6)}/{R.randint(1,6)}.{R.randint(0,9)}/{rid(6)}-{R.randint(1,6)}.{R.randint(0,9)}.pom")
            L.append(f"[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/apache/{rid(6)}.pom ({R.randint(1,30)} kB at {R.randint(100,900)} kB/s)")
        L += ["[INFO] --- maven-resources-plugin:3.3.1:resources (default-resources) @ " + m + " ---", "[INFO] Copying 3 resources",
              "[INFO] --- maven-compiler-plugin:3.11.0:compile (default-compile) @ " + m + " ---", "[INFO] Changes detected - recompiling the module! :source"]
        if m == "shop-pricing":
            L += ["[INFO] Compiling 42 source files with javac [debug target 17] to target/classes",
                  "[WARNING] /build/shop-pricing/src/main/java/com/example/pricing/Legacy.java: Some input files use or override a deprecated API.",
                  "[INFO] -------------------------------------------------------------",
                  "[ERROR] COMPILATION ERROR : ", "[INFO] -------------------------------------------------------------",
                  "[ERROR] /build/shop-pricing/src/main/java/com/example/pricing/PricingService.java:[87,24] cannot find symbol",
                  "  symbol:   method getTierLevel()", "  location: variable customer of type com.example.model.Customer",
                  "[ERROR] /build/shop-pricing/src/main/java/com/example/pricing/Quote.java:[12,8] class QuoteV2 is public, should be declared in a file named QuoteV2.java",
                  "[INFO] 2 errors ", "[INFO] -------------------------------------------------------------"]
            break
        L.append(f"[INFO] Compiling {R.randint(5,50)} source files with javac [debug target 17] to target/classes")
    L += ["[INFO] ------------------------------------------------------------------------", "[INFO] Reactor Summary for shop-parent 1.4.0-SNAPSHOT:", "[INFO]",
          "[INFO] shop-parent ........................................ SUCCESS [  0.412 s]", "[INFO] shop-common ........................................ SUCCESS [  4.118 s]",
          "[INFO] shop-model ......................................... SUCCESS [  2.007 s]", "[INFO] shop-pricing ....................................... FAILURE [  1.532 s]",
          "[INFO] shop-web ........................................... SKIPPED", "[INFO] shop-app ........................................... SKIPPED",
          "[INFO] ------------------------------------------------------------------------", "[INFO] BUILD FAILURE", "[INFO] ------------------------------------------------------------------------",
          "[INFO] Total time:  14.882 s", "[INFO] Finished at: 2026-12-05T09:20:11Z", "[INFO] ------------------------------------------------------------------------",
          "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project shop-pricing: Compilation failure: Compilation failure: ",
          "[ERROR] /build/shop-pricing/src/main/java/com/example/pricing/PricingService.java:[87,24] cannot find symbol",
          "[ERROR]   symbol:   method getTierLevel()", "[ERROR]   location: variable customer of type com.example.model.Customer",
          "[ERROR] /build/shop-pricing/src/main/java/com/example/pricing/Quote.java:[12,8] class QuoteV2 is public, should be declared in a file named QuoteV2.java",
          "[ERROR] -> [Help 1]", "[ERROR]", "[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.",
          "[ERROR] Re-run Maven using the -X switch to enable full debug logging.", "[ERROR]",
          "[ERROR] For more information about the errors and possible solutions, please read the following articles:",
          "[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MojoFailureException", "[ERROR]",
          "[ERROR] After correcting the problems, you can resume the build with the command", "[ERROR]   mvn <args> -rf :shop-pricing"]
    w("mvn_build_failure.txt", "\n".join(L) + "\n", "cannot find symbol getTierLevel PricingService.java:[87,24]; Quote.java")


def gradle_test():
    L = ["> Task :compileJava UP-TO-DATE", "> Task :processResources UP-TO-DATE", "> Task :classes UP-TO-DATE", "> Task :compileTestJava",
         "/home/ci/shop/src/test/java/com/example/LegacyTest.java:14: warning: [deprecation] Date(int,int,int) in Date has been deprecated",
         "        Date d = new Date(2020, 1, 1);", "                 ^", "1 warning", "> Task :processTestResources NO-SOURCE", "> Task :testClasses", "> Task :test", ""]
    for c in ["CartServiceTest", "PricingServiceTest", "OrderRepositoryTest", "CouponTest", "InventoryTest", "CheckoutFlowTest"]:
        for k in range(R.randint(15, 40)):
            t = f"test{rid(4).capitalize()}{k}()"
            if c == "PricingServiceTest" and k == 7:
                L += [f"{c} > appliesGoldDiscount() FAILED", "    org.opentest4j.AssertionFailedError: expected: <90.00> but was: <100.00>",
                      "        at app//org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)",
                      "        at app//org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:1145)",
                      "        at app//com.example.PricingServiceTest.appliesGoldDiscount(PricingServiceTest.java:58)", ""]
            else:
                L.append(f"{c} > {t} PASSED")
    L += ["", "162 tests completed, 1 failed", "", "> Task :test FAILED", "", "FAILURE: Build failed with an exception.", "",
          "* What went wrong:", "Execution failed for task ':test'.", "> There were failing tests. See the report at: file:///home/ci/shop/build/reports/tests/test/index.html",
          "", "* Try:", "> Run with --scan to get full insights.", "", "BUILD FAILED in 38s", "5 actionable tasks: 3 executed, 2 up-to-date"]
    w("gradle_test.txt", "\n".join(L) + "\n", "appliesGoldDiscount expected 90 was 100 PricingServiceTest.java:58")


def tsc():
    L = []
    files = [f"src/{d}/{n}.ts" for d in ["components", "lib", "routes", "store"] for n in ["index", "utils", "types", "api", "hooks", "form"]]
    codes = [("TS2322", "Type 'string | undefined' is not assignable to type 'string'.\n  Type 'undefined' is not assignable to type 'string'."),
             ("TS7006", "Parameter 'e' implicitly has an 'any' type."), ("TS2339", "Property 'userId' does not exist on type 'Session'."),
             ("TS2345", "Argument of type 'number' is not assignable to parameter of type 'string'."), ("TS18048", "'item.price' is possibly 'undefined'.")]
    n = 0
    for f in files:
        for _ in range(R.randint(0, 6)):
            c, m = R.choice(codes)
            L.append(f"{f}({R.randint(1,300)},{R.randint(1,60)}): error {c}: {m}")
            n += 1
    L.append("src/lib/api.ts(12,10): error TS2305: Module '\"./types\"' has no exported member 'OrderDTO'.")
    n += 1
    L.append(f"Found {n} errors in {len(files)} files.")
    w("tsc.txt", "\n".join(L) + "\n", "all errors with file:line; TS2305 OrderDTO")


def eslint_stylish():
    L = []
    tot_e = tot_w = 0
    rules = [("warning", "'React' is defined but never used", "no-unused-vars"), ("warning", "Unexpected console statement", "no-console"),
             ("error", "Missing semicolon", "semi"), ("warning", "React Hook useEffect has a missing dependency: 'load'. Either include it or remove the dependency array", "react-hooks/exhaustive-deps"),
             ("error", "'x' is assigned a value but never used", "@typescript-eslint/no-unused-vars")]
    for d in ["components", "pages", "lib", "hooks"]:
        for n in range(10):
            items = [R.choice(rules[:2] + rules[3:4]) for _ in range(R.randint(0, 8))]
            if d == "lib" and n == 4:
                items.append(("error", "Unsafe call of an `any` typed value", "@typescript-eslint/no-unsafe-call"))
            if not items:
                continue
            L.append(f"/home/dev/web/src/{d}/File{n}.tsx")
            for s, m, r in items:
                L.append(f"  {R.randint(1,200)}:{R.randint(1,40)}  {s:<7}  {m}  {r}")
                if s == "error": tot_e += 1
                else: tot_w += 1
            L.append("")
    L.append(f"\u2716 {tot_e+tot_w} problems ({tot_e} errors, {tot_w} warnings)")
    L.append("")
    w("eslint_stylish.txt", "\n".join(L) + "\n", "the one error no-unsafe-call in lib/File4.tsx")


def eslint_json():
    res = []
    for n in range(60):
        msgs = []
        for _ in range(R.randint(0, 4)):
            msgs.append({"ruleId": "no-console", "severity": 1, "message": "Unexpected console statement.", "line": R.randint(1, 300), "column": R.randint(1, 30), "nodeType": "MemberExpression", "messageId": "unexpected", "endLine": 1, "endColumn": 12})
        if n == 41:
            msgs.append({"ruleId": "no-undef", "severity": 2, "message": "'process' is not defined.", "line": 9, "column": 5, "nodeType": "Identifier", "messageId": "undef", "endLine": 9, "endColumn": 12})
        res.append({"filePath": f"/repo/src/mod{n}.js", "messages": msgs, "suppressedMessages": [], "errorCount": sum(m["severity"] == 2 for m in msgs), "fatalErrorCount": 0,
                    "warningCount": sum(m["severity"] == 1 for m in msgs), "fixableErrorCount": 0, "fixableWarningCount": 0, "usedDeprecatedRules": []})
    w("eslint.json", json.dumps(res), "no-undef process in mod41.js")


def ruff():
    L = []
    codes = [("F401", "[*] `os` imported but unused"), ("E501", "Line too long (112 > 100)"), ("B008", "Do not perform function call `Depends` in argument defaults"), ("UP007", "[*] Use `X | Y` for type annotations")]
    n = 0
    for f in [f"app/{a}/{b}.py" for a in ["api", "core", "db", "services"] for b in ["models", "routes", "deps", "utils", "schemas"]]:
        for _ in range(R.randint(0, 5)):
            c, m = R.choice(codes)
            L.append(f"{f}:{R.randint(1,300)}:{R.randint(1,80)}: {c} {m}")
            n += 1
    L.append("app/services/billing.py:77:9: F821 Undefined name `invoice_total`")
    n += 1
    L.append(f"Found {n} errors.")
    L.append("[*] 21 fixable with the `--fix` option (4 hidden fixes can be enabled with the `--unsafe-fixes` option).")
    w("ruff.txt", "\n".join(L) + "\n", "F821 undefined invoice_total billing.py:77")


def mypy():
    L = []
    n = 0
    for i in range(140):
        f = f"src/shop/{R.choice(['models','views','services','utils','api'])}/{R.choice(['a','b','c','orders','cart'])}.py"
        L.append(f"{f}:{R.randint(1,400)}: error: Function is missing a return type annotation  [no-untyped-def]")
        n += 1
        if i % 11 == 0:
            L.append(f"{f}:{R.randint(1,400)}: note: Use \"-> None\" if function does not return a value")
    L.insert(77, "src/shop/services/payments.py:212: error: Argument 1 to \"charge\" has incompatible type \"Decimal | None\"; expected \"Decimal\"  [arg-type]")
    L.append(f"Found {n+1} errors in 23 files (checked 118 source files)")
    w("mypy.txt", "\n".join(L) + "\n", "the arg-type error payments.py:212 among no-untyped-def")


def rspec():
    L = ["Randomized with seed 48213", ""]
    dots = "".join("." for _ in range(611))
    dots = dots[:402] + "F" + dots[402:]
    L += [dots[i:i + 120] for i in range(0, len(dots), 120)]
    L += ["", "Failures:", "", "  1) Order#total applies the coupon before tax",
          "     Failure/Error: expect(order.total).to eq(Money.new(9_000))", "",
          "       expected: #<Money fractional:9000 currency:USD>", "            got: #<Money fractional:10000 currency:USD>", "",
          "       (compared using ==)", "     # ./spec/models/order_spec.rb:44:in `block (3 levels) in <top (required)>'",
          "     # ./spec/support/time_helpers.rb:12:in `block (2 levels) in <top (required)>'", "",
          "Finished in 41.27 seconds (files took 3.81 seconds to load)", "612 examples, 1 failure", "", "Failed examples:", "",
          "rspec ./spec/models/order_spec.rb:39 # Order#total applies the coupon before tax", "", "Randomized with seed 48213"]
    w("rspec.txt", "\n".join(L) + "\n", "order_spec.rb:39 coupon before tax expected 9000 got 10000")


def pytest_out():
    L = ["============================= test session starts ==============================", "platform linux -- Python 3.12.1, pytest-8.0.0, pluggy-1.4.0",
         "rootdir: /home/ci/shop", "configfile: pyproject.toml", "plugins: cov-4.1.0, xdist-3.5.0", "collected 1418 items", ""]
    for m in range(40):
        name = f"tests/{R.choice(['unit','integration'])}/test_{rid(6)}.py"
        dots = "".join("." if not (m == 27 and k == 9) else "F" for k in range(R.randint(20, 50)))
        L.append(f"{name} {dots:<50} [{min(99,(m+1)*2.5):3.0f}%]")
    L += ["", "=================================== FAILURES ===================================", "____________________ test_refund_partial_amount ____________________", "",
          "    def test_refund_partial_amount():", "        order = make_order(total=Decimal(\"15.00\"))", "        refund = refunds.partial(order, pct=10)",
          ">       assert refund.amount == Decimal(\"1.50\")", "E       AssertionError: assert Decimal('15.00') == Decimal('1.50')",
          "E        +  where Decimal('15.00') = <Refund id=None amount=15.00>.amount", "", "tests/unit/test_refunds.py:212: AssertionError",
          "=========================== short test summary info ============================",
          "FAILED tests/unit/test_refunds.py::test_refund_partial_amount - AssertionError: assert Decimal('15.00') == Decimal('1.50')",
          "================== 1 failed, 1417 passed, 12 warnings in 88.31s (0:01:28) ==================="]
    w("pytest.txt", "\n".join(L) + "\n", "test_refund_partial_amount 15.00 vs 1.50 test_refunds.py:212")


def jest():
    L = []
    for i in range(70):
        f = f"src/{R.choice(['components','hooks','lib'])}/{rid(6)}.test.tsx"
        if i == 52:
            L += [" FAIL  src/lib/checkout.test.ts", "  ● checkout › rejects an expired card", "",
                  "    expect(received).toBe(expected) // Object.is equality", "", "    Expected: 402", "    Received: 200", "",
                  "      31 |     const res = await api.post('/checkout', expiredCard);", "    > 32 |     expect(res.status).toBe(402);",
                  "         |                        ^", "      33 |   });", "", "      at Object.<anonymous> (src/lib/checkout.test.ts:32:24)", ""]
        else:
            L.append(f" PASS  {f} ({R.uniform(0.5,9):.3f} s)")
    L += ["Test Suites: 1 failed, 69 passed, 70 total", "Tests:       1 failed, 713 passed, 714 total", "Snapshots:   41 passed, 41 total", "Time:        48.113 s", "Ran all test suites."]
    w("jest.txt", "\n".join(L) + "\n", "checkout rejects expired card expected 402 received 200")


def go_test():
    L = []
    for p in ["internal/cart", "internal/orders", "internal/payments", "internal/server", "pkg/money"]:
        for k in range(R.randint(20, 45)):
            t = f"Test{rid(5).capitalize()}{k}"
            L.append(f"=== RUN   {t}")
            if p == "internal/payments" and k == 11:
                L += [f"    ledger_test.go:88: balance = -5, want >= 0", f"--- FAIL: {t} (0.00s)"]
            else:
                L.append(f"--- PASS: {t} (0.{R.randint(0,99):02d}s)")
        if p == "internal/payments":
            L += ["FAIL", f"FAIL\tgithub.com/example/shop/{p}\t0.412s"]
        else:
            L += ["PASS", f"ok  \tgithub.com/example/shop/{p}\t{R.uniform(0.1,3):.3f}s"]
    L.append("FAIL")
    w("go_test_v.txt", "\n".join(L) + "\n", "ledger_test.go:88 balance = -5 and the failing test name")


def go_vet():
    L = ["# github.com/example/shop/internal/server", "internal/server/handler.go:88:14: fmt.Sprintf format %d has arg id of wrong type string",
         "# github.com/example/shop/internal/cart", "internal/cart/cart.go:51:2: unreachable code",
         "internal/cart/cart.go:142:9: loop variable c captured by func literal", "# github.com/example/shop/pkg/money",
         "pkg/money/round.go:12:5: self-assignment of x to x"]
    w("go_vet.txt", "\n".join(L) + "\n", "4 vet findings (short payload)")


def golangci():
    L = []
    lin = [("errcheck", "Error return value of `w.Write` is not checked"), ("gosimple", "S1002: should omit comparison to bool constant, can be simplified to `ok`"),
           ("unused", "func `helper` is unused"), ("govet", "printf: fmt.Sprintf format %s has arg x of wrong type int"), ("staticcheck", "SA1019: \"io/ioutil\" has been deprecated since Go 1.19")]
    for i in range(85):
        l, m = R.choice(lin)
        f = f"internal/{R.choice(['cart','orders','server','store'])}/{R.choice(['a','b','handler','repo'])}.go"
        ln, col = R.randint(1, 300), R.randint(2, 30)
        L += [f"{f}:{ln}:{col}: {m} ({l})", f"\t{R.choice(['w.Write(buf)','if ok == true {','func helper() {}','x := ioutil.ReadAll(r)'])}", "\t" + " " * col + "^"]
    L += ["internal/store/tx.go:66:3: SA2001: empty critical section (staticcheck)", "\tmu.Lock()", "\t^"]
    w("golangci_lint.txt", "\n".join(L) + "\n", "all findings with linter names; SA2001 tx.go:66")


def clippy():
    L = ["    Checking serde v1.0.193", "    Checking tokio v1.35.1", "    Checking ingest v0.4.0 (/home/dev/ingest)"]
    for i in range(40):
        f = f"src/{R.choice(['pipeline/mod','pipeline/decode','kafka','config','main'])}.rs"
        ln = R.randint(1, 400)
        kind = R.choice(["needless_return", "redundant_clone", "len_zero"])
        msg = {"needless_return": "unneeded `return` statement", "redundant_clone": "redundant clone", "len_zero": "length comparison to zero"}[kind]
        L += [f"warning: {msg}", f"  --> {f}:{ln}:{R.randint(5,30)}", "   |", f"{ln:>3} |     {R.choice(['return x;','let y = s.clone();','if v.len() == 0 {'])}",
              "   |     ^^^^^^^^^", "   |", f"   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#{kind}", ""]
        if i == 0:
            L.insert(-1, f"   = note: `#[warn(clippy::{kind})]` on by default")
    L += ["error[E0502]: cannot borrow `self.buf` as mutable because it is also borrowed as immutable", "   --> src/pipeline/decode.rs:118:9", "    |",
          "115 |         let head = &self.buf[..4];", "    |                     -------- immutable borrow occurs here", "...",
          "118 |         self.buf.clear();", "    |         ^^^^^^^^^^^^^^^^ mutable borrow occurs here", "119 |         parse(head)",
          "    |               ---- immutable borrow later used here", "",
          "For more information about this error, try `rustc --explain E0502`.",
          "warning: `ingest` (bin \"ingest\") generated 40 warnings (run `cargo clippy --fix --bin \"ingest\"` to apply 31 suggestions)",
          "error: could not compile `ingest` (bin \"ingest\") due to 1 previous error; 40 warnings emitted"]
    w("cargo_clippy.txt", "\n".join(L) + "\n", "E0502 decode.rs:118")


def cargo_test():
    L = ["   Compiling ingest v0.4.0 (/home/dev/ingest)", "    Finished `test` profile [unoptimized + debuginfo] target(s) in 8.41s",
         "     Running unittests src/lib.rs (target/debug/deps/ingest-" + hexs(16) + ")", "", "running 214 tests"]
    names = [f"pipeline::tests::{rid(6)}_{k}" for k in range(214)]
    for k, n in enumerate(names):
        L.append(f"test {n} ... {'FAILED' if k == 133 else 'ok'}")
    L += ["", "failures:", "", f"---- {names[133]} stdout ----", f"thread '{names[133]}' panicked at src/pipeline/window.rs:77:9:",
          "attempt to add with overflow", "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace", "", "", "failures:", f"    {names[133]}", "",
          "test result: FAILED. 213 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.71s", "", "error: test failed, to rerun pass `--lib`"]
    w("cargo_test.txt", "\n".join(L) + "\n", "failing test name, window.rs:77 add overflow")


def npm_eresolve():
    L = ["npm ERR! code ERESOLVE", "npm ERR! ERESOLVE unable to resolve dependency tree", "npm ERR! ", "npm ERR! While resolving: web@0.3.0",
         "npm ERR! Found: react@18.2.0", "npm ERR! node_modules/react", "npm ERR!   react@\"^18.2.0\" from the root project", "npm ERR!   peer react@\">=16.8.0\" from @emotion/react@11.11.3",
         "npm ERR!   node_modules/@emotion/react", "npm ERR!     @emotion/react@\"^11.11.0\" from the root project", "npm ERR! ",
         "npm ERR! Could not resolve dependency:", "npm ERR! peer react@\"^17.0.0\" from react-beautiful-dnd@13.1.1", "npm ERR! node_modules/react-beautiful-dnd",
         "npm ERR!   react-beautiful-dnd@\"^13.1.1\" from the root project", "npm ERR! ", "npm ERR! Fix the upstream dependency conflict, or retry",
         "npm ERR! this command with --force or --legacy-peer-deps", "npm ERR! to accept an incorrect (and potentially broken) dependency resolution.", "npm ERR! ",
         "npm ERR! ", "npm ERR! For a full report see:", "npm ERR! /root/.npm/_logs/2026-12-05T09_21_33_112Z-eresolve-report.txt", "",
         "npm ERR! A complete log of this run can be found in: /root/.npm/_logs/2026-12-05T09_21_33_112Z-debug-0.log"]
    pre = [f"npm WARN deprecated {R.choice(['inflight@1.0.6','glob@7.2.3','rimraf@3.0.2','stable@0.1.8'])}: {R.choice(['This module is not supported, and leaks memory.','Glob versions prior to v9 are no longer supported','Rimraf versions prior to v4 are no longer supported'])}" for _ in range(30)]
    w("npm_eresolve.txt", "\n".join(pre + L) + "\n", "react-beautiful-dnd peer react ^17 vs 18.2.0")


def yarn_err():
    L = ["yarn install v1.22.19", "[1/4] Resolving packages...", "[2/4] Fetching packages..."]
    L += [f"warning {R.choice(['@babel/core','eslint','jest','webpack'])} > {rid(6)}@{R.randint(1,9)}.{R.randint(0,9)}.{R.randint(0,9)}: {R.choice(['This package is deprecated','Please upgrade','Use x instead'])}" for _ in range(60)]
    L += ["[3/4] Linking dependencies...", "warning \" > @testing-library/react-hooks@8.0.1\" has unmet peer dependency \"react-test-renderer@^16.9.0 || ^17.0.0\".",
          "[4/4] Building fresh packages...", "error /home/dev/web/node_modules/canvas: Command failed.", "Exit code: 1",
          "Command: node-pre-gyp install --fallback-to-build --update-binary", "Arguments: ", "Directory: /home/dev/web/node_modules/canvas",
          "Output:", "node-pre-gyp info it worked if it ends with ok", "node-pre-gyp info using node-pre-gyp@1.0.11", "node-pre-gyp info using node@20.11.1 | linux | x64",
          "node-pre-gyp http GET https://github.com/Automattic/node-canvas/releases/download/v2.11.2/canvas-v2.11.2-node-v115-linux-glibc-x64.tar.gz",
          "node-pre-gyp ERR! install response status 404 Not Found on https://github.com/Automattic/node-canvas/releases/download/v2.11.2/canvas-v2.11.2-node-v115-linux-glibc-x64.tar.gz",
          "Package pangocairo was not found in the pkg-config search path.", "Perhaps you should add the directory containing `pangocairo.pc'",
          "gyp: Call to 'pkg-config pangocairo --libs' returned exit status 1 while in binding.gyp. while trying to load binding.gyp",
          "gyp ERR! configure error", "gyp ERR! stack Error: `gyp` failed with exit code: 1", "node-pre-gyp ERR! build error",
          "info Visit https://yarnpkg.com/en/docs/cli/install for documentation about this command."]
    w("yarn_install_error.txt", "\n".join(L) + "\n", "canvas build: pangocairo not found in pkg-config")


def pip_resolver():
    L = ["Collecting fastapi==0.109.0", "  Downloading fastapi-0.109.0-py3-none-any.whl.metadata (24 kB)"]
    for p in ["pydantic", "starlette", "uvicorn", "sqlalchemy", "alembic", "httpx", "anyio", "idna", "sniffio", "typing-extensions", "click", "h11", "greenlet", "mako", "markupsafe"]:
        L += [f"Collecting {p}>={R.randint(0,3)}.{R.randint(0,9)}", f"  Using cached {p}-{R.randint(0,3)}.{R.randint(0,9)}.{R.randint(0,9)}-py3-none-any.whl.metadata ({R.randint(2,90)} kB)"]
    L += ["INFO: pip is looking at multiple versions of fastapi to determine which version is compatible with other requirements. This could take a while.",
          "ERROR: Cannot install -r requirements.txt (line 3) and fastapi==0.109.0 because these package versions have conflicting dependencies.", "",
          "The conflict is caused by:", "    The user requested pydantic==1.10.13", "    fastapi 0.109.0 depends on pydantic!=1.8, !=1.8.1, !=2.0.0, !=2.0.1, !=2.1.0, <3.0.0 and >=1.7.4",
          "    sqlmodel 0.0.14 depends on pydantic<3.0.0 and >=2.1.1", "", "To fix this you could try to:", "1. loosen the range of package versions you've specified",
          "2. remove package versions to allow pip attempt to solve the dependency conflict", "",
          "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts"]
    w("pip_resolver.txt", "\n".join(L) + "\n", "pydantic==1.10.13 vs sqlmodel needs >=2.1.1")


def terraform_apply():
    L = []
    for i in range(60):
        r = f"aws_security_group_rule.ingress_{i}"
        L.append(f"{r}: Refreshing state... [id=sgrule-{R.randint(10**9,10**10)}]")
    L += ["", "Terraform used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:", "  + create", "  ~ update in-place", "",
          "Terraform will perform the following actions:", "", "  # aws_db_instance.main will be updated in-place", "  ~ resource \"aws_db_instance\" \"main\" {",
          "      ~ instance_class = \"db.t3.medium\" -> \"db.r6g.large\"", "        id             = \"shop-prod\"", "        # (41 unchanged attributes hidden)", "    }", "",
          "  # aws_s3_bucket.assets will be created", "  + resource \"aws_s3_bucket\" \"assets\" {", "      + acl    = (known after apply)", "      + arn    = (known after apply)",
          "      + bucket = \"shop-assets-prod\"", "      + id     = (known after apply)", "    }", "", "Plan: 1 to add, 1 to change, 0 to destroy.", "",
          "aws_s3_bucket.assets: Creating...", "aws_db_instance.main: Modifying... [id=shop-prod]"]
    for k in range(1, 25):
        L.append(f"aws_db_instance.main: Still modifying... [id=shop-prod, {k*10}s elapsed]")
    L += ["╷", "│ Error: creating S3 Bucket (shop-assets-prod): BucketAlreadyExists: The requested bucket name is not available. The bucket namespace is shared by all users of the system. Please select a different name and try again.",
          "│ \tstatus code: 409, request id: 7QK2J1ZB, host id: " + hexs(40), "│ ", "│   with aws_s3_bucket.assets,", "│   on s3.tf line 1, in resource \"aws_s3_bucket\" \"assets\":",
          "│    1: resource \"aws_s3_bucket\" \"assets\" {", "│ ", "╵", "aws_db_instance.main: Modifications complete after 4m12s [id=shop-prod]"]
    w("terraform_apply.txt", "\n".join(L) + "\n", "BucketAlreadyExists s3.tf line 1; db modified ok")


def terraform_plan():
    L = [f"module.vpc.aws_subnet.private[{i}]: Refreshing state... [id=subnet-{hexs(17)}]" for i in range(40)]
    L += ["", "Terraform will perform the following actions:", ""]
    for i in range(25):
        L += [f"  # module.app.aws_ecs_service.svc[\"{SVCS[i%10]}-{i}\"] will be updated in-place", f"  ~ resource \"aws_ecs_service\" \"svc\" {{",
              f"      ~ task_definition = \"arn:aws:ecs:us-east-1:123456789012:task-definition/{SVCS[i%10]}:{40+i}\" -> (known after apply)", "        id = \"x\"",
              "        # (14 unchanged attributes hidden)", "    }", ""]
    L += ["  # aws_rds_cluster.main must be replaced", "-/+ resource \"aws_rds_cluster\" \"main\" {", "      ~ arn = \"arn:aws:rds:us-east-1:123456789012:cluster:shop\" -> (known after apply)",
          "      ~ engine_version = \"14.9\" -> \"15.4\" # forces replacement", "      ~ id = \"shop\" -> (known after apply)", "        # (30 unchanged attributes hidden)", "    }", "",
          "Plan: 1 to add, 25 to change, 1 to destroy."]
    w("terraform_plan.txt", "\n".join(L) + "\n", "rds cluster must be replaced (engine_version forces replacement)")


def ansible():
    L = ["", "PLAY [webservers] **************************************************************", ""]
    hosts = [f"web{i:02d}.prod" for i in range(1, 31)]
    for task in ["Gathering Facts", "common : install packages", "common : template sshd_config", "app : pull image", "app : render env file", "app : restart service", "app : wait for health"]:
        L += [f"TASK [{task}] " + "*" * (70 - len(task)), ]
        for h in hosts:
            if task == "app : wait for health" and h == "web17.prod":
                L.append(f"fatal: [{h}]: FAILED! => {{\"changed\": false, \"elapsed\": 60, \"msg\": \"Status code was -1 and not [200]: Request failed: <urlopen error [Errno 111] Connection refused>\", \"redirected\": false, \"status\": -1, \"url\": \"http://127.0.0.1:8080/healthz\"}}")
            else:
                L.append(f"{R.choice(['ok','ok','changed'])}: [{h}]")
        L.append("")
    L += ["PLAY RECAP *********************************************************************"]
    for h in hosts:
        f = 1 if h == "web17.prod" else 0
        L.append(f"{h:<26}: ok={7-f}    changed={R.randint(0,3)}    unreachable=0    failed={f}    skipped=0    rescued=0    ignored=0   ")
    w("ansible_playbook.txt", "\n".join(L) + "\n", "web17 failed health check connection refused")


def docker_build():
    L = ["#0 building with \"default\" instance using docker driver", "", "#1 [internal] load build definition from Dockerfile", "#1 transferring dockerfile: 1.21kB done", "#1 DONE 0.0s"]
    L += ["#5 [build 2/6] RUN apt-get update && apt-get install -y build-essential libpq-dev"]
    for i in range(150):
        L.append(f"#5 {i*0.11+1:.3f} Get:{i+1} http://deb.debian.org/debian bookworm/main amd64 {rid(7)} amd64 {R.randint(1,9)}.{R.randint(0,9)}-{R.randint(1,5)} [{R.randint(10,900)} kB]")
    L += ["#5 DONE 21.4s", "", "#7 [build 4/6] RUN pip install --no-cache-dir -r requirements.txt"]
    for i in range(40):
        L.append(f"#7 {22+i*0.2:.2f} Collecting {rid(7)}=={R.randint(0,4)}.{R.randint(0,20)}.{R.randint(0,9)}")
    L += ["#7 31.02   error: subprocess-exited-with-error", "#7 31.02   ", "#7 31.02   × Building wheel for psycopg2 (pyproject.toml) did not run successfully.",
          "#7 31.02   │ exit code: 1", "#7 31.02   ╰─> [12 lines of output]", "#7 31.02       Error: pg_config executable not found.", "#7 31.02       ",
          "#7 31.02       pg_config is required to build psycopg2 from source.  Please add the directory", "#7 31.02       [end of output]",
          "#7 ERROR: process \"/bin/sh -c pip install --no-cache-dir -r requirements.txt\" did not complete successfully: exit code: 1",
          "------", " > [build 4/6] RUN pip install --no-cache-dir -r requirements.txt:", "------", "Dockerfile:14", "--------------------",
          "  12 |     COPY requirements.txt .", "  13 |     ", "  14 | >>> RUN pip install --no-cache-dir -r requirements.txt", "--------------------",
          "ERROR: failed to solve: process \"/bin/sh -c pip install --no-cache-dir -r requirements.txt\" did not complete successfully: exit code: 1"]
    w("docker_build.txt", "\n".join(L) + "\n", "psycopg2 pg_config not found Dockerfile:14")


def make_out():
    L = []
    for i in range(120):
        L.append(f"gcc -O2 -Wall -Iinclude -c src/{rid(6)}.c -o build/{rid(6)}.o")
        if i % 17 == 5:
            L.append(f"src/util.c:{R.randint(10,400)}:{R.randint(3,30)}: warning: unused variable ‘tmp’ [-Wunused-variable]")
    L += ["gcc -O2 -Wall -o build/server build/*.o -lpthread -lssl", "/usr/bin/ld: build/net.o: in function `tls_init':", "net.c:(.text+0x1a4): undefined reference to `SSL_CTX_set_ciphersuites'",
          "collect2: error: ld returned 1 exit status", "make: *** [Makefile:42: build/server] Error 1"]
    w("make_link_error.txt", "\n".join(L) + "\n", "undefined reference SSL_CTX_set_ciphersuites")


def cmake_err():
    L = ["-- The C compiler identification is GNU 12.2.0", "-- The CXX compiler identification is GNU 12.2.0", "-- Detecting C compiler ABI info", "-- Detecting C compiler ABI info - done",
         "-- Check for working C compiler: /usr/bin/cc - skipped"]
    for i in range(50):
        L.append(f"-- Looking for {rid(8)}.h")
        L.append(f"-- Looking for {rid(8)}.h - found")
    L += ["-- Found Threads: TRUE", "CMake Error at /usr/share/cmake-3.25/Modules/FindPackageHandleStandardArgs.cmake:230 (message):", "  Could NOT find OpenSSL, try to set the path to OpenSSL root folder in the",
          "  system variable OPENSSL_ROOT_DIR (missing: OPENSSL_CRYPTO_LIBRARY", "  OPENSSL_INCLUDE_DIR)", "Call Stack (most recent call first):",
          "  /usr/share/cmake-3.25/Modules/FindPackageHandleStandardArgs.cmake:600 (_FPHSA_FAILURE_MESSAGE)", "  CMakeLists.txt:31 (find_package)", "",
          "-- Configuring incomplete, errors occurred!", "See also \"/home/dev/proj/build/CMakeFiles/CMakeOutput.log\"."]
    w("cmake_error.txt", "\n".join(L) + "\n", "Could NOT find OpenSSL CMakeLists.txt:31")


def strace():
    L = []
    for i in range(900):
        c = R.random()
        if c < 0.4:
            L.append(f"{4000+R.randint(0,3)} read({R.randint(3,12)}, \"{''.join(R.choice('abcdef') for _ in range(12))}\"..., 4096) = {R.randint(1,4096)}")
        elif c < 0.7:
            L.append(f"{4000+R.randint(0,3)} mmap(NULL, {R.randint(1,99)*4096}, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f{hexs(10)}")
        elif c < 0.9:
            L.append(f"{4000+R.randint(0,3)} openat(AT_FDCWD, \"/usr/lib/python3.12/{rid(6)}.py\", O_RDONLY|O_CLOEXEC) = {R.randint(3,12)}")
        else:
            L.append(f"{4000+R.randint(0,3)} stat(\"/usr/lib/python3.12/site-packages/{rid(5)}\", 0x7ffd{hexs(8)}) = -1 ENOENT (No such file or directory)")
        if i == 700:
            L.append("4002 openat(AT_FDCWD, \"/etc/shop/config.yaml\", O_RDONLY|O_CLOEXEC) = -1 EACCES (Permission denied)")
    L.append("4000 exit_group(1)                     = ?")
    L.append("4000 +++ exited with 1 +++")
    w("strace.txt", "\n".join(L) + "\n", "EACCES /etc/shop/config.yaml")


def valgrind():
    L = ["==31337== Memcheck, a memory error detector", "==31337== Copyright (C) 2002-2022, and GNU GPL'd, by Julian Seward et al.", "==31337== Using Valgrind-3.19.0 and LibVEX; rerun with -h for copyright info",
         "==31337== Command: ./build/server --selftest", "==31337== "]
    for i in range(200):
        L.append(f"selftest: case {i} ok")
    L += ["==31337== Invalid read of size 4", "==31337==    at 0x10A2F3: parse_header (http.c:211)", "==31337==    by 0x10A6C1: handle_conn (server.c:88)", "==31337==    by 0x109E12: main (main.c:40)",
          "==31337==  Address 0x4a8d0a4 is 0 bytes after a block of size 36 alloc'd", "==31337==    at 0x48407B4: malloc (vg_replace_malloc.c:381)", "==31337==    by 0x10A2A0: parse_header (http.c:198)", "==31337== "]
    L += ["==31337== HEAP SUMMARY:", "==31337==     in use at exit: 4,128 bytes in 3 blocks", "==31337==   total heap usage: 1,204 allocs, 1,201 frees, 2,411,873 bytes allocated", "==31337== ",
          "==31337== 4,096 bytes in 1 blocks are definitely lost in loss record 3 of 3", "==31337==    at 0x48407B4: malloc (vg_replace_malloc.c:381)", "==31337==    by 0x10B011: buf_new (buf.c:12)",
          "==31337==    by 0x10A6F0: handle_conn (server.c:97)", "==31337== ", "==31337== LEAK SUMMARY:", "==31337==    definitely lost: 4,096 bytes in 1 blocks",
          "==31337==    indirectly lost: 0 bytes in 0 blocks", "==31337==      possibly lost: 0 bytes in 0 blocks", "==31337==    still reachable: 32 bytes in 2 blocks",
          "==31337==         suppressed: 0 bytes in 0 blocks", "==31337== ", "==31337== ERROR SUMMARY: 2 errors from 2 contexts (suppressed: 0 from 0)"]
    w("valgrind.txt", "\n".join(L) + "\n", "invalid read http.c:211; leak buf.c:12")


def gdb_bt():
    L = ["Reading symbols from ./server...", "[New LWP 4411]", "[New LWP 4412]", "[Thread debugging using libthread_db enabled]", "Using host libthread_db library \"/lib/x86_64-linux-gnu/libthread_db.so.1\".",
         "Core was generated by `./server --port 8080'.", "Program terminated with signal SIGSEGV, Segmentation fault.",
         "#0  0x000055d1c2a4b3f0 in parse_header (buf=0x0, len=36) at src/http.c:211", "211\t    uint32_t v = *(uint32_t *)(buf + off);", "[Current thread is 1 (Thread 0x7f1e2c7fe640 (LWP 4411))]",
         "(gdb) thread apply all bt", ""]
    for t in range(1, 17):
        L.append(f"Thread {t} (Thread 0x7f1e{hexs(8)} (LWP {4410+t})):")
        if t == 1:
            L += ["#0  0x000055d1c2a4b3f0 in parse_header (buf=0x0, len=36) at src/http.c:211", "#1  0x000055d1c2a4b6c1 in handle_conn (fd=12) at src/server.c:88",
                  "#2  0x000055d1c2a4c012 in worker_main (arg=0x55d1c3f0a2a0) at src/pool.c:51", "#3  0x00007f1e2e894ac3 in start_thread (arg=<optimized out>) at ./nptl/pthread_create.c:442",
                  "#4  0x00007f1e2e926850 in clone3 () at ../sysdeps/unix/sysv/linux/x86_64/clone3.S:81"]
        else:
            L += ["#0  0x00007f1e2e8e0e2e in __futex_abstimed_wait_common64 (private=0, cancel=true, abstime=0x0, op=393, expected=0, futex_word=0x55d1c3f0a2e8) at ./nptl/futex-internal.c:57",
                  "#1  __futex_abstimed_wait_common (cancel=true, private=0, abstime=0x0, clockid=0, expected=0, futex_word=0x55d1c3f0a2e8) at ./nptl/futex-internal.c:87",
                  "#2  __GI___futex_abstimed_wait_cancelable64 (futex_word=futex_word@entry=0x55d1c3f0a2e8, expected=expected@entry=0, clockid=clockid@entry=0, abstime=abstime@entry=0x0, private=private@entry=0) at ./nptl/futex-internal.c:139",
                  f"#3  0x000055d1c2a4c0aa in queue_pop (q=0x55d1c3f0a2a0) at src/pool.c:{R.choice([33,34])}", "#4  0x000055d1c2a4c012 in worker_main (arg=0x55d1c3f0a2a0) at src/pool.c:48",
                  "#5  0x00007f1e2e894ac3 in start_thread (arg=<optimized out>) at ./nptl/pthread_create.c:442", "#6  0x00007f1e2e926850 in clone3 () at ../sysdeps/unix/sysv/linux/x86_64/clone3.S:81"]
        L.append("")
    w("gdb_backtrace.txt", "\n".join(L) + "\n", "SIGSEGV parse_header buf=0x0 http.c:211")

# ---------------- cli / system ----------------

def aws_instances():
    res = []
    for i in range(40):
        st = "running" if i != 23 else "stopped"
        inst = {"AmiLaunchIndex": 0, "ImageId": f"ami-{hexs(17)}", "InstanceId": f"i-{hexs(17)}", "InstanceType": R.choice(["t3.medium", "m6i.large", "c6i.xlarge"]),
                "KeyName": "prod-key", "LaunchTime": f"2026-{R.randint(1,11):02d}-{R.randint(1,28):02d}T10:00:00+00:00", "Monitoring": {"State": "disabled"},
                "Placement": {"AvailabilityZone": R.choice(["us-east-1a", "us-east-1b"]), "GroupName": "", "Tenancy": "default"},
                "PrivateDnsName": f"ip-10-0-{R.randint(0,7)}-{R.randint(2,250)}.ec2.internal", "PrivateIpAddress": f"10.0.{R.randint(0,7)}.{R.randint(2,250)}",
                "ProductCodes": [], "PublicDnsName": "", "State": {"Code": 16 if st == "running" else 80, "Name": st},
                "StateTransitionReason": "" if st == "running" else "User initiated (2026-12-04 22:10:03 GMT)", "SubnetId": f"subnet-{hexs(17)}", "VpcId": "vpc-0a1b2c3d4e5f67890",
                "Architecture": "x86_64", "BlockDeviceMappings": [{"DeviceName": "/dev/xvda", "Ebs": {"AttachTime": "2026-01-01T10:00:01+00:00", "DeleteOnTermination": True, "Status": "attached", "VolumeId": f"vol-{hexs(17)}"}}],
                "EbsOptimized": True, "EnaSupport": True, "Hypervisor": "xen", "NetworkInterfaces": [{"Attachment": {"AttachTime": "2026-01-01T10:00:00+00:00", "AttachmentId": f"eni-attach-{hexs(17)}", "DeleteOnTermination": True, "DeviceIndex": 0, "Status": "attached"}, "Description": "", "Groups": [{"GroupName": "web", "GroupId": f"sg-{hexs(17)}"}], "MacAddress": "0a:1b:2c:3d:4e:5f", "NetworkInterfaceId": f"eni-{hexs(17)}", "OwnerId": "123456789012", "PrivateIpAddress": "10.0.1.2", "SourceDestCheck": True, "Status": "in-use", "SubnetId": f"subnet-{hexs(17)}", "VpcId": "vpc-0a1b2c3d4e5f67890"}],
                "RootDeviceName": "/dev/xvda", "RootDeviceType": "ebs", "SecurityGroups": [{"GroupName": "web", "GroupId": f"sg-{hexs(17)}"}], "SourceDestCheck": True,
                "Tags": [{"Key": "Name", "Value": f"{R.choice(SVCS)}-{i:02d}"}, {"Key": "env", "Value": "prod"}], "VirtualizationType": "hvm",
                "CpuOptions": {"CoreCount": 1, "ThreadsPerCore": 2}, "MetadataOptions": {"State": "applied", "HttpTokens": "required", "HttpPutResponseHopLimit": 2, "HttpEndpoint": "enabled"}}
        res.append({"Groups": [], "Instances": [inst], "OwnerId": "123456789012", "ReservationId": f"r-{hexs(17)}"})
    w("aws_describe_instances.json", json.dumps({"Reservations": res}, indent=4) + "\n", "instance 23 stopped; every InstanceId/Name")


def gh_pr_list():
    L = []
    for i in range(60):
        n = 4120 - i
        L.append(f"{n}\t{R.choice(['fix','feat','chore','refactor'])}: {R.choice(['bump deps','cart totals','retry webhooks','drop py3.8','search ranking','new coupon types'])} ({rid(4)})\t{R.choice(USERS)}:{rid(6)}\t{'DRAFT' if i%9==0 else 'OPEN'}\t2026-12-0{R.randint(1,5)}T{R.randint(10,23)}:00:00Z")
    w("gh_pr_list.tsv", "\n".join(L) + "\n", "each PR number+title")


def gh_run_view():
    L = ["", "X main CI · 7123456789", "Triggered via push about 12 minutes ago", "", "JOBS"]
    jobs = ["lint", "typecheck", "unit (3.10)", "unit (3.11)", "unit (3.12)", "integration", "build-image", "e2e (chromium)", "e2e (firefox)", "docs"]
    for j in jobs:
        if j == "integration":
            L.append(f"X {j} in 4m12s (ID {R.randint(10**10, 10**11)})")
            L += ["  ✓ Set up job", "  ✓ Checkout", "  ✓ Setup Python", "  ✓ Start services", "  X Run integration tests", "  - Upload coverage", "  ✓ Complete job"]
        else:
            L.append(f"✓ {j} in {R.randint(0,9)}m{R.randint(0,59)}s (ID {R.randint(10**10, 10**11)})")
    L += ["", "ANNOTATIONS", "X Process completed with exit code 1.", "integration: .github#1", "", "! Node.js 16 actions are deprecated. Please update the following actions to use Node.js 20: actions/cache@v3.", "docs: .github#1", "",
          "To see what failed, try: gh run view 7123456789 --log-failed", "View this run on GitHub: https://github.com/example/shop/actions/runs/7123456789"]
    w("gh_run_view.txt", "\n".join(L) + "\n", "integration job failed at Run integration tests")


def gh_run_log_failed():
    L = []
    for i in range(800):
        t = ts(i, 0.2).strftime("%Y-%m-%dT%H:%M:%S.") + f"{R.randint(0,9999999):07d}Z"
        L.append(f"integration\tRun integration tests\t{t} tests/integration/test_{rid(5)}.py::test_{rid(6)} PASSED{'':>10}[{min(100,i//8):3d}%]")
        if i == 612:
            L.append(f"integration\tRun integration tests\t{t} tests/integration/test_webhooks.py::test_retry_backoff FAILED [ 76%]")
    t = ts(801, 0.2).strftime("%Y-%m-%dT%H:%M:%S.") + "0000000Z"
    L += [f"integration\tRun integration tests\t{t} E       assert 3 == 5", f"integration\tRun integration tests\t{t} E        +  where 3 = len([<Attempt 1>, <Attempt 2>, <Attempt 3>])",
          f"integration\tRun integration tests\t{t} tests/integration/test_webhooks.py:141: AssertionError",
          f"integration\tRun integration tests\t{t} FAILED tests/integration/test_webhooks.py::test_retry_backoff - assert 3 == 5",
          f"integration\tRun integration tests\t{t} ======= 1 failed, 799 passed in 201.33s (0:03:21) =======", f"integration\tRun integration tests\t{t} ##[error]Process completed with exit code 1."]
    w("gh_run_log_failed.txt", "\n".join(L) + "\n", "test_retry_backoff assert 3 == 5 test_webhooks.py:141")


def git_status():
    L = ["On branch feature/coupons", "Your branch is ahead of 'origin/feature/coupons' by 3 commits.", "  (use \"git push\" to publish your local commits)", "",
         "Changes to be committed:", "  (use \"git restore --staged <file>...\" to unstage)"]
    L += [f"\tmodified:   src/coupons/{rid(6)}.py" for _ in range(12)] + ["\tnew file:   migrations/0042_coupon_stack.py", ""]
    L += ["Changes not staged for commit:", "  (use \"git add <file>...\" to update what will be committed)", "  (use \"git restore <file>...\" to discard changes in working directory)"]
    L += [f"\tmodified:   tests/test_{rid(6)}.py" for _ in range(20)] + ["\tdeleted:    src/coupons/legacy.py", ""]
    L += ["Unmerged paths:", "  (use \"git add <file>...\" to mark resolution)", "\tboth modified:   src/cart/totals.py", ""]
    L += ["Untracked files:", "  (use \"git add <file>...\" to include in what will be committed)"] + [f"\t{rid(7)}.log" for _ in range(25)] + ["\t.env.local", ""]
    w("git_status.txt", "\n".join(L) + "\n", "unmerged src/cart/totals.py; deleted legacy.py; .env.local untracked")


def git_log_oneline():
    L = []
    for i in range(600):
        msg = R.choice(["fix: handle empty cart", "chore(deps): bump axios", "feat: coupon stacking", "refactor: split pricing", "docs: update README", "test: cover refunds"])
        if i == 211:
            msg = "revert: \"feat: new tax engine\" (breaks EU VAT)"
        L.append(f"{hexs(7)} {msg} (#{5000-i})")
    w("git_log_oneline.txt", "\n".join(L) + "\n", "the revert of the tax engine commit")


def git_blame():
    L = []
    lines = ["def total(cart):", "    subtotal = sum(i.price * i.qty for i in cart.items)", "    if cart.coupon:", "        subtotal -= cart.coupon.amount", "    tax = subtotal * TAX_RATE", "    return round(subtotal + tax, 2)", ""]
    for i in range(300):
        src = lines[i % len(lines)] if i < 280 else "    # TODO"
        h = R.choice(["a1b2c3d4", "9f8e7d6c", "5a5b5c5d"]) if i != 143 else "deadbeef"
        a = R.choice(["Alice Smith", "Bob Jones", "Carol White"]) if i != 143 else "Mallory Intern"
        L.append(f"{h} (src/cart/totals.py {a:<14} 2026-0{R.randint(1,9)}-1{R.randint(0,9)} 10:00:00 +0000 {i+1:>3}) {src}")
    w("git_blame.txt", "\n".join(L) + "\n", "line 144 changed by Mallory deadbeef")


def git_show():
    L = [f"commit {hexs(40)}", "Author: Carol White <carol@example.com>", "Date:   Fri Dec 4 17:22:09 2026 +0000", "", "    pricing: apply coupons before tax", "",
         "    Moves coupon application ahead of tax and adds a regression test.", ""]
    for f in ["src/pricing/totals.py", "src/pricing/coupons.py", "tests/test_totals.py", "CHANGELOG.md"]:
        L += [f"diff --git a/{f} b/{f}", f"index {hexs(7)}..{hexs(7)} 100644", f"--- a/{f}", f"+++ b/{f}"]
        for h in range(R.randint(2, 5)):
            s = R.randint(10, 300)
            L.append(f"@@ -{s},12 +{s},13 @@ def {rid(6)}():")
            for k in range(12):
                c = R.random()
                if c < 0.1:
                    L.append(f"-    old_{rid(5)} = compute({k})")
                elif c < 0.22:
                    L.append(f"+    new_{rid(5)} = compute({k}, coupon_first=True)")
                else:
                    L.append(f"     line_{rid(5)} = {k}")
    w("git_show.diff", "\n".join(L) + "\n", "which lines changed in totals.py")


def ls_laR():
    L = []
    dirs = ["."] + [f"./{d}" for d in ["src", "src/api", "src/core", "node_modules/.bin", "dist", "assets/img", "logs"]]
    for d in dirs:
        L.append(f"{d}:")
        n = R.randint(15, 60)
        L.append(f"total {R.randint(20,900)}")
        L.append("drwxr-xr-x  5 dev dev    4096 Dec  5 09:00 .")
        L.append("drwxr-xr-x 12 dev dev    4096 Dec  5 09:00 ..")
        for k in range(n):
            sz = R.randint(100, 90000)
            name = f"{rid(7)}.{R.choice(['ts','js','png','log','json'])}"
            if d == "./logs" and k == 3:
                sz, name = 8_412_339_112, "app-2026-12-04.log"
            L.append(f"-rw-r--r--  1 dev dev {sz:>7} Dec  {R.randint(1,5)} {R.randint(10,23)}:{R.randint(10,59)} {name}")
        L.append("")
    w("ls_laR.txt", "\n".join(L) + "\n", "8.4 GB log file in ./logs; directory headers")


def du_h():
    L = []
    for i in range(300):
        v = R.choice([f"{R.randint(4,999)}K", f"{R.randint(1,99)}M"])
        L.append(f"{v}\t./node_modules/{rid(7)}")
    L.insert(188, "14G\t./node_modules/.cache")
    L.append("15G\t./node_modules")
    L.append("15G\t.")
    w("du_h.txt", "\n".join(L) + "\n", ".cache 14G")


def ps_aux():
    L = ["USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND"]
    for i in range(250):
        u = R.choice(["root", "www-data", "postgres", "dev"])
        cmd = R.choice(["/usr/sbin/sshd -D", "nginx: worker process", "postgres: app shop 10.0.1.5(4411) idle", "[kworker/0:1-events]", "/usr/bin/containerd", "python3 -m gunicorn app:app -w 4"])
        cpu, mem = f"{R.uniform(0,2):.1f}", f"{R.uniform(0,1.5):.1f}"
        if i == 144:
            u, cpu, mem, cmd = "dev", "398.7", "61.2", "/usr/bin/node /home/dev/web/node_modules/.bin/webpack --watch"
        L.append(f"{u:<12}{R.randint(1,99999):>5} {cpu:>4} {mem:>4} {R.randint(1000,9999999):>6} {R.randint(100,999999):>5} ?        S{'s' if i%3 else 'l'}   Dec04   {R.randint(0,99)}:{R.randint(10,59)} {cmd}")
    w("ps_aux.txt", "\n".join(L) + "\n", "webpack 398.7% CPU 61.2% MEM")


def top_b():
    L = ["top - 09:31:02 up 41 days,  3:11,  2 users,  load average: 7.91, 6.44, 5.02", "Tasks: 312 total,   3 running, 309 sleeping,   0 stopped,   1 zombie",
         "%Cpu(s): 86.1 us,  9.2 sy,  0.0 ni,  3.9 id,  0.4 wa,  0.0 hi,  0.4 si,  0.0 st", "MiB Mem :  15712.4 total,    311.8 free,  14120.9 used,   1279.7 buff/cache",
         "MiB Swap:   2048.0 total,      0.0 free,   2048.0 used.    902.3 avail Mem ", "", "    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND"]
    rows = []
    for i in range(150):
        rows.append((R.randint(1, 99999), R.choice(["root", "dev", "postgres"]), R.uniform(0, 3), R.uniform(0, 2), R.choice(["sshd", "nginx", "postgres", "containerd", "kworker/2:0", "bash"])))
    rows[0] = (23117, "dev", 187.5, 44.1, "java")
    rows.sort(key=lambda r: -r[2])
    for pid, u, c, m, cmd in rows:
        L.append(f"{pid:>7} {u:<9} 20   0 {R.randint(1000,9000000):>7} {R.randint(100,900000):>6} {R.randint(100,90000):>6} S {c:>5.1f} {m:>5.1f} {R.randint(0,999)}:{R.randint(10,59)}.{R.randint(10,99)} {cmd}")
    w("top_b.txt", "\n".join(L) + "\n", "java 187.5% CPU; swap full; 1 zombie")


def df_h():
    L = ["Filesystem      Size  Used Avail Use% Mounted on", "udev            7.7G     0  7.7G   0% /dev", "tmpfs           1.6G  2.1M  1.6G   1% /run",
         "/dev/nvme0n1p1   97G   95G  2.1G  98% /", "tmpfs           7.7G     0  7.7G   0% /dev/shm", "tmpfs           5.0M     0  5.0M   0% /run/lock"]
    for i in range(50):
        L.append(f"/dev/loop{i:<10} {R.randint(40,90)}M   {R.randint(40,90)}M     0 100% /snap/{rid(6)}/{R.randint(100,3000)}")
    L += ["/dev/nvme1n1    492G  121G  346G  26% /data", "tmpfs           1.6G  4.0K  1.6G   1% /run/user/1000"]
    w("df_h.txt", "\n".join(L) + "\n", "/ at 98%")


def ss_tlnp():
    L = ["State  Recv-Q Send-Q Local Address:Port  Peer Address:PortProcess"]
    for p, proc in [(22, "sshd"), (80, "nginx"), (443, "nginx"), (5432, "postgres"), (6379, "redis-server"), (8080, "java"), (9090, "prometheus"), (9100, "node_exporter"), (3000, "grafana"), (2379, "etcd")]:
        L.append(f"LISTEN 0      {R.choice([128,511,4096]):<6} {'0.0.0.0' if p not in (5432,6379) else '127.0.0.1'}:{p:<11} 0.0.0.0:*    users:((\"{proc}\",pid={R.randint(100,9999)},fd={R.randint(3,20)}))")
    L.append("LISTEN 0      128    0.0.0.0:6380         0.0.0.0:*    users:((\"redis-server\",pid=31337,fd=6))")
    for i in range(120):
        L.append(f"ESTAB  0      0      10.0.1.5:{R.choice([443,5432,8080])}        10.0.{R.randint(0,7)}.{R.randint(2,250)}:{R.randint(30000,60000)} users:((\"{R.choice(['nginx','postgres','java'])}\",pid={R.randint(100,9999)},fd={R.randint(20,900)}))")
    w("ss_tanp.txt", "\n".join(L) + "\n", "every listening port incl. exposed redis 6380")


def env_dump():
    keys = ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOSTNAME=api-7c9", "HOME=/root", "LANG=C.UTF-8", "PYTHON_VERSION=3.12.1",
            "DATABASE_URL=postgres://app:S3cr3tPassw0rd@db.internal:5432/shop", "REDIS_URL=redis://redis:6379/0", "AWS_REGION=us-east-1", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "STRIPE_API_KEY=sk_live_51HxyzABCDEF0123456789abcdef", "LOG_LEVEL=debug", "DJANGO_SETTINGS_MODULE=shop.settings.prod", "ALLOWED_HOSTS=shop.example.com"]
    for i in range(70):
        s = R.choice(SVCS).upper().replace("-", "_")
        keys.append(f"{s}_SERVICE_PORT_HTTP_{i}=80")
        keys.append(f"{s}_PORT_80_TCP_ADDR_{i}=172.20.{R.randint(0,255)}.{R.randint(1,254)}")
    R.shuffle(keys)
    w("env_dump.txt", "\n".join(keys) + "\n", "LOG_LEVEL=debug in prod; settings module; secrets must be masked")


def openapi():
    paths = {}
    for res in ["orders", "carts", "items", "users", "coupons", "refunds", "invoices", "shipments"]:
        paths[f"/v1/{res}"] = {"get": {"operationId": f"list{res.capitalize()}", "summary": f"List {res}", "tags": [res],
                                       "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 100}}, {"name": "cursor", "in": "query", "schema": {"type": "string"}}],
                                       "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{res.capitalize()}Page"}}}}, "401": {"$ref": "#/components/responses/Unauthorized"}}},
                               "post": {"operationId": f"create{res.capitalize()[:-1]}", "summary": f"Create one of {res}", "tags": [res],
                                        "requestBody": {"required": True, "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{res.capitalize()[:-1]}Input"}}}},
                                        "responses": {"201": {"description": "Created"}, "422": {"$ref": "#/components/responses/Invalid"}}}}
        paths[f"/v1/{res}/{{id}}"] = {"get": {"operationId": f"get{res.capitalize()[:-1]}", "summary": f"Get one of {res}", "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}], "responses": {"200": {"description": "OK"}, "404": {"$ref": "#/components/responses/NotFound"}}},
                                      "delete": {"operationId": f"delete{res.capitalize()[:-1]}", "summary": f"Delete one of {res}", "deprecated": res == "coupons", "responses": {"204": {"description": "Deleted"}}}}
    schemas = {}
    for res in ["Order", "Cart", "Item", "User", "Coupon", "Refund", "Invoice", "Shipment"]:
        props = {f"{k}": {"type": R.choice(["string", "integer", "number", "boolean"]), "description": f"The {k} of the {res.lower()}."} for k in ["id", "created_at", "updated_at", "status", "amount", "currency", "note", "owner_id"]}
        props["status"] = {"type": "string", "enum": ["pending", "paid", "shipped", "cancelled", "refunded", "failed", "on_hold"]}
        schemas[res] = {"type": "object", "required": ["id", "status"], "properties": props}
        schemas[f"{res}Input"] = {"type": "object", "required": ["amount"], "properties": {"amount": {"type": "integer"}, "currency": {"type": "string", "pattern": "^[A-Z]{3}$"}}}
        schemas[f"{res}sPage"] = {"type": "object", "properties": {"data": {"type": "array", "items": {"$ref": f"#/components/schemas/{res}"}}, "next_cursor": {"type": "string", "nullable": True}}}
    doc = {"openapi": "3.0.3", "info": {"title": "Shop API", "version": "1.42.0", "description": "Public API of the shop."}, "servers": [{"url": "https://api.shop.example.com"}],
           "paths": paths, "components": {"schemas": schemas, "responses": {k: {"description": k} for k in ["Unauthorized", "Invalid", "NotFound"]},
                                          "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}}}, "security": [{"bearer": []}]}
    w("openapi.json", json.dumps(doc, indent=2) + "\n", "every path + method + operationId; enum of status; coupons delete deprecated")


def package_json():
    deps = {n: f"^{R.randint(0,18)}.{R.randint(0,20)}.{R.randint(0,9)}" for n in ["react", "react-dom", "next", "zod", "axios", "swr", "date-fns", "clsx", "lodash", "@tanstack/react-query", "zustand", "i18next", "react-hook-form", "@emotion/react", "@emotion/styled", "@mui/material", "react-beautiful-dnd", "stripe", "uuid", "dayjs"]}
    dev = {n: f"^{R.randint(0,9)}.{R.randint(0,20)}.{R.randint(0,9)}" for n in ["typescript", "eslint", "prettier", "jest", "@types/react", "@types/node", "vitest", "playwright", "husky", "lint-staged", "@testing-library/react", "ts-node", "tsx", "webpack", "babel-loader"]}
    doc = {"name": "@shop/web", "version": "0.3.0", "private": True, "type": "module", "engines": {"node": ">=20"},
           "scripts": {"dev": "next dev", "build": "next build", "start": "next start", "lint": "eslint . --ext .ts,.tsx", "test": "jest", "e2e": "playwright test", "typecheck": "tsc --noEmit", "prepare": "husky install"},
           "dependencies": deps, "devDependencies": dev, "overrides": {"semver": "^7.5.4"}, "lint-staged": {"*.{ts,tsx}": ["eslint --fix", "prettier --write"]}, "browserslist": [">0.2%", "not dead"]}
    w("package.json", json.dumps(doc, indent=2) + "\n", "every dep name+version; scripts")


def tsconfig():
    doc = {"$schema": "https://json.schemastore.org/tsconfig", "compilerOptions": {"target": "ES2022", "lib": ["dom", "dom.iterable", "esnext"], "module": "esnext", "moduleResolution": "bundler",
           "strict": True, "noUncheckedIndexedAccess": True, "allowJs": False, "skipLibCheck": True, "esModuleInterop": True, "resolveJsonModule": True, "isolatedModules": True, "jsx": "preserve",
           "incremental": True, "baseUrl": ".", "paths": {"@/*": ["./src/*"], "@components/*": ["./src/components/*"], "@lib/*": ["./src/lib/*"]}, "plugins": [{"name": "next"}]},
           "include": ["next-env.d.ts", "**/*.ts", "**/*.tsx", ".next/types/**/*.ts"], "exclude": ["node_modules", "dist"]}
    w("tsconfig.json", json.dumps(doc, indent=2) + "\n", "all compilerOptions")


def eslintrc_yaml():
    txt = """# ESLint config for the web app
root: true
env:
  browser: true
  es2022: true
  node: true
parser: '@typescript-eslint/parser'
parserOptions:
  ecmaVersion: latest
  sourceType: module
  project: ./tsconfig.json
plugins:
  - '@typescript-eslint'
  - react
  - react-hooks
  - import
extends:
  - eslint:recommended
  - plugin:@typescript-eslint/recommended
  - plugin:react/recommended
  - plugin:react-hooks/recommended
  - prettier
settings:
  react:
    version: detect
  import/resolver:
    typescript: {}
rules:
  no-console: [warn, { allow: [warn, error] }]
  '@typescript-eslint/no-unused-vars': [error, { argsIgnorePattern: '^_' }]
  '@typescript-eslint/no-explicit-any': off
  react/react-in-jsx-scope: off
  import/order:
    - error
    - groups: [builtin, external, internal, parent, sibling, index]
      newlines-between: always
      alphabetize: { order: asc, caseInsensitive: true }
overrides:
  - files: ['**/*.test.ts', '**/*.test.tsx']
    env:
      jest: true
    rules:
      '@typescript-eslint/no-non-null-assertion': off
ignorePatterns:
  - dist/
  - coverage/
  - '*.config.js'
"""
    w(".eslintrc.yaml", txt, "every rule")


def pyproject():
    deps = "\n".join(f'    "{n}>={R.randint(0,3)}.{R.randint(0,20)}",' for n in ["fastapi", "pydantic", "sqlalchemy", "alembic", "httpx", "uvicorn[standard]", "redis", "celery", "structlog", "orjson", "tenacity", "boto3"])
    txt = f"""[build-system]
requires = ["hatchling>=1.21"]
build-backend = "hatchling.build"

[project]
name = "shop-api"
version = "1.42.0"
description = "Shop backend API"
readme = "README.md"
requires-python = ">=3.11"
license = {{ text = "Proprietary" }}
authors = [{{ name = "Shop Team", email = "dev@example.com" }}]
dependencies = [
{deps}
]

[project.optional-dependencies]
dev = ["pytest>=8", "pytest-cov", "mypy>=1.8", "ruff>=0.2", "types-redis"]
docs = ["mkdocs-material", "mkdocstrings[python]"]

[project.scripts]
shop-api = "shop.cli:main"

[tool.hatch.build.targets.wheel]
packages = ["src/shop"]

[tool.ruff]
line-length = 100
target-version = "py311"

[tool.ruff.lint]
select = ["E", "F", "I", "B", "UP", "S"]
ignore = ["E501", "S101"]

[tool.ruff.lint.per-file-ignores]
"tests/**" = ["S105", "S106"]

[tool.mypy]
strict = true
plugins = ["pydantic.mypy"]
exclude = ["migrations/"]

[[tool.mypy.overrides]]
module = ["celery.*", "boto3.*"]
ignore_missing_imports = true

[tool.pytest.ini_options]
addopts = "-ra -q --cov=shop --cov-report=term-missing"
testpaths = ["tests"]
filterwarnings = ["error", "ignore::DeprecationWarning:botocore.*"]

[tool.coverage.report]
fail_under = 85
exclude_lines = ["pragma: no cover", "if TYPE_CHECKING:"]
"""
    w("pyproject.toml", txt, "project name/deps/requires-python; tool sections")


def compose_yaml():
    txt = """x-common: &common
  restart: unless-stopped
  logging:
    driver: json-file
    options:
      max-size: "10m"
      max-file: "3"
  env_file: .env

services:
  web:
    <<: *common
    build:
      context: .
      dockerfile: docker/web.Dockerfile
    command: gunicorn shop.wsgi:application -b 0.0.0.0:8000 -w 4
    ports:
      - "8000:8000"
    depends_on:
      db:
        condition: service_healthy
      redis:
        condition: service_started
    environment:
      DJANGO_SETTINGS_MODULE: shop.settings.dev
      DATABASE_URL: postgres://app:app@db:5432/shop
  worker:
    <<: *common
    build: .
    command: celery -A shop worker -l info -c 4
    depends_on: [db, redis]
    deploy:
      resources:
        limits:
          memory: 512M
  db:
    image: postgres:16-alpine
    volumes:
      - pgdata:/var/lib/postgresql/data
      - ./docker/init.sql:/docker-entrypoint-initdb.d/init.sql:ro
    environment:
      POSTGRES_USER: app
      POSTGRES_PASSWORD: app
      POSTGRES_DB: shop
    healthcheck:
      test: ["CMD-SHELL", "pg_isready -U app -d shop"]
      interval: 5s
      timeout: 3s
      retries: 10
  redis:
    image: redis:7
    command: >
      redis-server
      --appendonly yes
      --maxmemory 256mb
    ports:
      - "6379:6379"
  mailhog:
    image: mailhog/mailhog:v1.0.1
    ports: ["8025:8025"]

volumes:
  pgdata: {}
"""
    w("docker-compose.yaml", txt, "services, images, ports, commands")


def gha_workflow():
    steps = ""
    for j in ["lint", "test", "build"]:
        steps += f"""  {j}:
    runs-on: ubuntu-latest
""" + ("""    strategy:
      fail-fast: false
      matrix:
        python: ["3.10", "3.11", "3.12"]
        db: [postgres, sqlite]
""" if j == "test" else "") + f"""    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: ${{{{ matrix.python || '3.12' }}}}
          cache: pip
      - name: Install
        run: pip install -e .[dev]
      - name: {j.capitalize()}
        run: |
          {'ruff check . && ruff format --check .' if j=='lint' else 'pytest -n auto --db $DB' if j=='test' else 'python -m build && twine check dist/*'}
"""
    txt = """name: CI
on:
  push:
    branches: [main]
  pull_request:
concurrency:
  group: ${{ github.workflow }}-${{ github.ref }}
  cancel-in-progress: true
permissions:
  contents: read
jobs:
""" + steps
    w("ci.yml", txt, "jobs, matrix, run commands")

# ---------------- tables/data/docs ----------------

def csv_export():
    L = ["order_id,created_at,customer_email,country,items,subtotal,discount,tax,total,status"]
    for i in range(2500):
        sub = round(R.uniform(5, 300), 2)
        st = "paid"
        if i == 1732:
            sub = 48210.00
        if i in (400, 1900):
            st = "chargeback"
        d = round(sub * R.choice([0, 0, 0.1]), 2)
        tax = round((sub - d) * 0.2, 2)
        L.append(f"ORD-{100000+i},2026-11-{R.randint(1,30):02d}T{R.randint(0,23):02d}:{R.randint(0,59):02d}:00Z,{rid(6)}@example.com,{R.choice(['DE','FR','US','GB','NL'])},{R.randint(1,9)},{sub:.2f},{d:.2f},{tax:.2f},{sub-d+tax:.2f},{st}")
    w("orders_export.csv", "\n".join(L) + "\n", "ORD-101732 total ~57852; two chargebacks")


def readme():
    L = ["# shop-api", "", "[![CI](https://github.com/example/shop/actions/workflows/ci.yml/badge.svg)](https://github.com/example/shop/actions) [![codecov](https://codecov.io/gh/example/shop/branch/main/graph/badge.svg)](https://codecov.io/gh/example/shop)", "",
         "Backend for the shop: orders, carts, payments and refunds.", ""]
    secs = ["Requirements", "Quick start", "Configuration", "Running tests", "Database migrations", "Deploying", "Troubleshooting", "Contributing", "License"]
    for s in secs:
        L += [f"## {s}", ""]
        for p in range(R.randint(2, 5)):
            L.append(" ".join(R.choice(["The service", "You", "This step", "The worker", "Migrations"]) + " " + R.choice(["reads settings from the environment", "must run before the web process starts", "uses Postgres 16 and Redis 7", "is safe to repeat", "fails loudly when a key is missing"]) + "." for _ in range(R.randint(2, 5))))
            L.append("")
        if s == "Configuration":
            L += ["| Variable | Default | Description |", "|---|---|---|"] + [f"| `{k}` | `{v}` | {d} |" for k, v, d in [("DATABASE_URL", "-", "Postgres DSN (required)"), ("REDIS_URL", "redis://localhost:6379/0", "Cache and broker"), ("LOG_LEVEL", "info", "One of debug, info, warning, error"), ("PAYMENTS_PROVIDER", "stripe", "stripe or adyen"), ("REFUND_WINDOW_DAYS", "30", "Days after delivery a refund is allowed")]] + [""]
        if s == "Quick start":
            L += ["```bash", "cp .env.example .env", "docker compose up -d db redis", "make migrate", "make run", "```", ""]
        if s == "Troubleshooting":
            L += ["### `psycopg2` fails to build", "", "Install `libpq-dev` (Debian) or `postgresql-libs` (Arch).", "", "### Error: relation \"orders\" does not exist", "", "Run `make migrate` first.", ""]
    w("README.md", "\n".join(L) + "\n", "every heading; config table; quick start")


def man_page():
    def ov(s):
        return "".join(c + "\b" + c for c in s)

    def ul(s):
        return "".join("_\b" + c for c in s)
    L = [f"GREP(1){' '*52}General Commands Manual{' '*52}GREP(1)", "", "", ov("NAME"), "       grep, egrep, fgrep - print lines that match patterns", "", ov("SYNOPSIS"),
         f"       {ov('grep')} [{ul('OPTION')}...] {ul('PATTERNS')} [{ul('FILE')}...]", "", ov("DESCRIPTION")]
    L += ["       " + " ".join(R.choice(["grep searches for PATTERNS in each FILE.", "PATTERNS is one or more patterns separated by newline characters,", "and grep prints each line that matches a pattern.", "Typically PATTERNS should be quoted when grep is used in a shell command."]) for _ in range(3)) for _ in range(8)]
    L += ["", ov("OPTIONS")]
    for sub, opts in [("Generic Program Information", [("--help", "Output a usage message and exit."), ("-V, --version", "Output the version number of grep and exit.")]),
                      ("Matching Control", [("-e PATTERNS, --regexp=PATTERNS", "Use PATTERNS as the patterns."), ("-i, --ignore-case", "Ignore case distinctions in patterns and input data."), ("-v, --invert-match", "Invert the sense of matching, to select non-matching lines."), ("-w, --word-regexp", "Select only those lines containing matches that form whole words.")]),
                      ("General Output Control", [("-c, --count", "Suppress normal output; instead print a count of matching lines."), ("-l, --files-with-matches", "Suppress normal output; instead print the name of each input file."), ("-m NUM, --max-count=NUM", "Stop reading a file after NUM matching lines."), ("-q, --quiet, --silent", "Quiet; do not write anything to standard output.")]),
                      ("Context Line Control", [("-A NUM, --after-context=NUM", "Print NUM lines of trailing context after matching lines."), ("-B NUM, --before-context=NUM", "Print NUM lines of leading context before matching lines."), ("-C NUM, -NUM, --context=NUM", "Print NUM lines of output context.")]),
                      ("File and Directory Selection", [("-r, --recursive", "Read all files under each directory, recursively."), ("--exclude=GLOB", "Skip any command-line file with a name suffix that matches the pattern GLOB."), ("--include=GLOB", "Search only files whose base name matches GLOB.")])]:
        L += [f"   {ov(sub)}"]
        for o, d in opts:
            L += [f"       {ov(o.split(',')[0])}{o[len(o.split(',')[0]):]}", f"              {d}" + " " + " ".join(R.choice(["This option has no effect if -c is also given.", "If FILE is a directory, grep reads it recursively.", "Note that errors are still reported on standard error."]) for _ in range(2)), ""]
    L += [ov("EXIT STATUS"), "       Normally the exit status is 0 if a line is selected, 1 if no lines were selected, and 2 if an error occurred.", "", ov("ENVIRONMENT"), f"       {ov('GREP_COLORS')}", "              Controls how the --color option highlights output.", "", ov("SEE ALSO"), "       awk(1), cmp(1), diff(1), find(1), regex(7), sed(1)", "", f"GNU grep 3.11{' '*50}2023-04-10{' '*50}GREP(1)"]
    w("man_grep.txt", "\n".join(L) + "\n", "every option name; section headings")


def html_doc():
    items = ""
    for fn, sig, d in [("debounce", "_.debounce(func, [wait=0], [options={}])", "Creates a debounced function that delays invoking func until after wait milliseconds have elapsed since the last time it was invoked."),
                       ("throttle", "_.throttle(func, [wait=0], [options={}])", "Creates a throttled function that only invokes func at most once per every wait milliseconds."),
                       ("memoize", "_.memoize(func, [resolver])", "Creates a function that memoizes the result of func."),
                       ("once", "_.once(func)", "Creates a function that is restricted to invoking func once."),
                       ("curry", "_.curry(func, [arity=func.length])", "Creates a function that accepts arguments of func and either invokes func returning its result."),
                       ("partial", "_.partial(func, [partials])", "Creates a function that invokes func with partials prepended to the arguments it receives."),
                       ("defer", "_.defer(func, [args])", "Defers invoking the func until the current call stack has cleared."),
                       ("negate", "_.negate(predicate)", "Creates a function that negates the result of the predicate func.")]:
        items += f"""<div class="doc-container"><div>
  <h3 id="{fn}"><code>{sig}</code></h3>
  <div class="description"><p>{d}</p><p>Since <strong>0.1.0</strong></p></div>
  <h4>Arguments</h4>
  <ol><li><code>func</code> <em>(Function)</em>: The function to wrap.</li><li><code>[wait=0]</code> <em>(number)</em>: The number of milliseconds.</li></ol>
  <h4>Returns</h4><p><em>(Function)</em>: Returns the new function.</p>
  <h4>Example</h4>
  <pre><code class="language-js">jQuery(window).on('resize', _.{fn}(calculateLayout, 150));
var source = new EventSource('/stream');
jQuery(source).on('message', _.{fn}(batchLog, 250, {{ 'maxWait': 1000 }}));</code></pre>
</div></div>
"""
    nav = "".join(f'<li><a href="#{x}">{x}</a></li>' for x in ["chunk", "compact", "concat", "difference", "drop", "fill", "flatten", "head", "join", "last", "nth", "pull", "remove", "reverse", "slice", "tail", "take", "union", "uniq", "zip"] * 3)
    txt = f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Lodash Documentation — Function</title>
<link rel="stylesheet" href="/assets/css/main.css"><script async src="https://www.googletagmanager.com/gtag/js?id=UA-xxx"></script>
<style>body{{font-family:sans-serif}} .doc-container{{margin:1em}}</style></head>
<body><header><nav><ul>{nav}</ul></nav></header><main><h1>Function</h1>
{items}</main><footer><p>© JS Foundation and other contributors</p></footer></body></html>
"""
    w("lodash_function.html", txt, "each signature with description")


def systemctl_status():
    L = ["× shop-api.service - Shop API (gunicorn)", "     Loaded: loaded (/etc/systemd/system/shop-api.service; enabled; preset: enabled)",
         "     Active: failed (Result: exit-code) since Sat 2026-12-05 09:14:41 UTC; 2min 3s ago", "   Duration: 1.204s", "    Process: 23110 ExecStart=/srv/shop/.venv/bin/gunicorn shop.wsgi -c /etc/shop/gunicorn.py (code=exited, status=3)",
         "   Main PID: 23110 (code=exited, status=3)", "        CPU: 1.188s", "",
         "Dec 05 09:14:40 web-03 gunicorn[23110]: [2026-12-05 09:14:40 +0000] [23110] [INFO] Starting gunicorn 21.2.0",
         "Dec 05 09:14:41 web-03 gunicorn[23114]: django.core.exceptions.ImproperlyConfigured: Set the SECRET_KEY environment variable",
         "Dec 05 09:14:41 web-03 gunicorn[23110]: [2026-12-05 09:14:41 +0000] [23110] [ERROR] Worker (pid:23114) exited with code 3",
         "Dec 05 09:14:41 web-03 gunicorn[23110]: [2026-12-05 09:14:41 +0000] [23110] [ERROR] Shutting down: Master",
         "Dec 05 09:14:41 web-03 gunicorn[23110]: [2026-12-05 09:14:41 +0000] [23110] [ERROR] Reason: Worker failed to boot.",
         "Dec 05 09:14:41 web-03 systemd[1]: shop-api.service: Main process exited, code=exited, status=3/NOTIMPLEMENTED",
         "Dec 05 09:14:41 web-03 systemd[1]: shop-api.service: Failed with result 'exit-code'."]
    w("systemctl_status.txt", "\n".join(L) + "\n", "ImproperlyConfigured SECRET_KEY (short payload)")


def apt_err():
    L = ["Reading package lists...", "Building dependency tree...", "Reading state information..."]
    L += ["The following additional packages will be installed:"] + ["  " + " ".join(f"lib{rid(6)}{R.randint(0,9)}" for _ in range(8)) for _ in range(12)]
    L += [f"Get:{i} http://archive.ubuntu.com/ubuntu jammy/main amd64 lib{rid(6)} amd64 {R.randint(1,9)}.{R.randint(0,9)} [{R.randint(10,900)} kB]" for i in range(1, 90)]
    L += ["Fetched 48.1 MB in 6s (8,012 kB/s)"] + [f"Unpacking lib{rid(6)}:amd64 ({R.randint(1,9)}.{R.randint(0,9)}) ..." for _ in range(80)]
    L += ["Setting up postgresql-16 (16.1-1.pgdg22.04+1) ...", "Error: could not create default cluster. Please create it manually with", "", "  pg_createcluster 16 main --start", "",
          "or a similar command (see 'man pg_createcluster').", "dpkg: error processing package postgresql-16 (--configure):", " installed postgresql-16 package post-installation script subprocess returned error exit status 1",
          "Errors were encountered while processing:", " postgresql-16", "E: Sub-process /usr/bin/dpkg returned an error code (1)"]
    w("apt_install_error.txt", "\n".join(L) + "\n", "postgresql-16 post-install failed: could not create default cluster")


def npm_ls():
    L = ["@shop/web@0.3.0 /home/dev/web"]
    for i in range(120):
        n = f"{rid(6)}"
        L.append(f"├─┬ {n}@{R.randint(0,9)}.{R.randint(0,20)}.{R.randint(0,9)}")
        for k in range(R.randint(1, 4)):
            L.append(f"│ ├── {rid(6)}@{R.randint(0,9)}.{R.randint(0,9)}.{R.randint(0,9)}{' deduped' if R.random()<0.3 else ''}")
        if i == 77:
            L.append("│ └── UNMET PEER DEPENDENCY react@17.0.2")
            L.append("│ └── react@18.2.0 invalid: \"^17.0.0\" from node_modules/react-beautiful-dnd")
    L.append("└── zod@3.22.4")
    L.append("")
    L.append("npm ERR! code ELSPROBLEMS")
    L.append("npm ERR! invalid: react@18.2.0 /home/dev/web/node_modules/react")
    w("npm_ls.txt", "\n".join(L) + "\n", "react invalid peer")


def pip_list():
    L = ["Package                  Version", "------------------------ -----------"]
    for n in sorted(set(rid(7) for _ in range(150)) | {"django", "celery", "urllib3", "requests", "cryptography"}):
        v = {"django": "3.2.4", "urllib3": "1.26.5", "cryptography": "3.3.2"}.get(n, f"{R.randint(0,9)}.{R.randint(0,30)}.{R.randint(0,9)}")
        L.append(f"{n:<25}{v}")
    w("pip_list.txt", "\n".join(L) + "\n", "django version (every package name)")


def kubectl_logs_json_many_warn():
    L = []
    for i in range(2000):
        t = ts(i, 0.1).isoformat() + "Z"
        L.append(json.dumps({"ts": t, "level": "warn", "logger": "cache", "msg": "cache miss ratio high", "ratio": round(R.uniform(0.3, 0.4), 3), "span_id": str(1700000000000000000 + R.randint(0, 999))}))
        if i == 1500:
            L.append(json.dumps({"ts": t, "level": "error", "logger": "db", "msg": "pq: remaining connection slots are reserved for non-replication superuser connections", "pool": "primary"}))
    w("json_lines_warn.log", "\n".join(L) + "\n", "the one error: connection slots reserved")


def mcp_tools_list():
    tools = []
    for n in ["search_issues", "get_issue", "create_issue", "update_issue", "add_comment", "list_pull_requests", "get_pull_request", "merge_pull_request", "list_commits", "get_file_contents",
              "create_or_update_file", "push_files", "search_code", "list_branches", "create_branch", "fork_repository", "create_repository", "search_users", "list_workflow_runs", "rerun_workflow", "get_job_logs", "list_releases"]:
        tools.append({"name": n, "description": f"{n.replace('_',' ').capitalize()} in a GitHub repository. Requires a token with repo scope.",
                      "inputSchema": {"type": "object", "properties": {"owner": {"type": "string", "description": "Repository owner"}, "repo": {"type": "string", "description": "Repository name"},
                                                                        "state": {"type": "string", "enum": ["open", "closed", "all"]}, "per_page": {"type": "number", "minimum": 1, "maximum": 100}},
                                      "required": ["owner", "repo"] + (["pull_number"] if "pull" in n else [])}})
    w("mcp_tools_list.json", json.dumps({"jsonrpc": "2.0", "id": 2, "result": {"tools": tools}}, indent=2), "every tool name + required params")


def stack_only_python():
    L = ["Traceback (most recent call last):"]
    for k in range(30):
        L += [f'  File "/usr/lib/python3.12/site-packages/{R.choice(["django","celery","kombu"])}/{rid(6)}.py", line {R.randint(10,900)}, in {rid(6)}', f"    return self.{rid(6)}(*args, **kwargs)"]
    L += ['  File "/srv/app/shop/payments/stripe_client.py", line 64, in charge', "    resp = stripe.PaymentIntent.create(amount=amount, currency=cur, customer=cust)",
          "stripe.error.CardError: Request req_8sKx2: Your card was declined. (code=card_declined, decline_code=insufficient_funds)",
          "", "During handling of the above exception, another exception occurred:", "", "Traceback (most recent call last):",
          '  File "/srv/app/shop/orders/service.py", line 201, in checkout', "    self.payments.charge(order)",
          '  File "/srv/app/shop/payments/service.py", line 33, in charge', "    raise PaymentFailed(order.id) from e", "shop.payments.errors.PaymentFailed: order 88121"]
    w("python_chained_traceback.txt", "\n".join(L) + "\n", "CardError insufficient_funds stripe_client.py:64; PaymentFailed")


def git_diff_color():
    E = "\x1b"
    L = [f"{E}[1mdiff --git a/src/app.py b/src/app.py{E}[m", f"{E}[1mindex 1a2b3c4..5d6e7f8 100644{E}[m", f"{E}[1m--- a/src/app.py{E}[m", f"{E}[1m+++ b/src/app.py{E}[m"]
    for h in range(8):
        L.append(f"{E}[36m@@ -{h*40+1},9 +{h*40+1},10 @@{E}[m def handler_{h}():")
        for k in range(9):
            r = R.random()
            if r < 0.2:
                L.append(f"{E}[31m-    x_{h}_{k} = old_call({k}){E}[m")
            elif r < 0.45:
                L.append(f"{E}[32m+{E}[m{E}[32m    x_{h}_{k} = new_call({k}, retries=3){E}[m")
            else:
                L.append(f"     y_{h}_{k} = {k}")
    w("git_diff_color.txt", "\n".join(L) + "\n", "all changed lines, escapes stripped")


def kafka_consumer_groups():
    L = ["", "GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID                                      HOST            CLIENT-ID"]
    for p in range(64):
        cur = R.randint(10**6, 10**7)
        lag = R.randint(0, 20) if p != 41 else 1_204_331
        L.append(f"orders-sink     orders.v2       {p:<10} {cur:<15} {cur+lag:<15} {lag:<15} consumer-orders-sink-{R.randint(1,8)}-{hexs(8)}-{hexs(4)} /10.0.{R.randint(0,7)}.{R.randint(2,250)}   consumer-orders-sink-{R.randint(1,8)}")
    w("kafka_consumer_groups.txt", "\n".join(L) + "\n", "partition 41 lag 1,204,331")


def docker_ps():
    L = ["CONTAINER ID   IMAGE                                   COMMAND                  CREATED        STATUS                          PORTS                                       NAMES"]
    for i in range(45):
        s = R.choice(SVCS)
        st = f"Up {R.randint(1,40)} hours (healthy)"
        if i == 30:
            st = "Restarting (1) 12 seconds ago"
        if i == 8:
            st = "Exited (137) 3 minutes ago"
        L.append(f"{hexs(12)}   registry.example.com/{s}:1.{R.randint(0,9)}.0{'':<10}   \"/app/entrypoint.sh\"     {R.randint(2,9)} days ago     {st:<31} 0.0.0.0:{8000+i}->8080/tcp, :::{8000+i}->8080/tcp   {s}-{i}")
    w("docker_ps.txt", "\n".join(L) + "\n", "Restarting container and Exited (137)")


def sql_explain():
    L = ["                                                            QUERY PLAN", "-----------------------------------------------------------------------------------------------------------------------------------"]
    L += [" Sort  (cost=48210.11..48212.61 rows=1000 width=72) (actual time=5120.331..5120.402 rows=1000 loops=1)", "   Sort Key: (sum(oi.qty)) DESC", "   Sort Method: quicksort  Memory: 103kB",
          "   ->  HashAggregate  (cost=48140.00..48160.00 rows=2000 width=72) (actual time=5118.002..5119.871 rows=1843 loops=1)", "         Group Key: p.id",
          "         ->  Hash Join  (cost=421.00..44311.00 rows=765800 width=44) (actual time=3.112..4810.114 rows=771020 loops=1)", "               Hash Cond: (oi.product_id = p.id)",
          "               ->  Seq Scan on order_items oi  (cost=0.00..41880.00 rows=765800 width=12) (actual time=0.011..4601.221 rows=771020 loops=1)",
          "                     Filter: (created_at > (now() - '90 days'::interval))", "                     Rows Removed by Filter: 2210031",
          "               ->  Hash  (cost=296.00..296.00 rows=10000 width=40) (actual time=3.001..3.002 rows=10000 loops=1)", "                     Buckets: 16384  Batches: 1  Memory Usage: 812kB",
          "                     ->  Seq Scan on products p  (cost=0.00..296.00 rows=10000 width=40) (actual time=0.006..1.441 rows=10000 loops=1)",
          " Planning Time: 0.311 ms", " Execution Time: 5121.002 ms", "(15 rows)"]
    w("explain_analyze.txt", "\n".join(L) + "\n", "Seq Scan order_items 4601 ms, rows removed 2.2M (short)")


def junit_xml():
    L = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites name="jest tests" tests="400" failures="1" errors="0" time="61.2">']
    for s in range(20):
        L.append(f'  <testsuite name="src/{rid(6)}.test.ts" errors="0" failures="{1 if s==13 else 0}" skipped="0" timestamp="2026-12-05T09:00:00" time="{R.uniform(1,5):.3f}" tests="20">')
        for k in range(20):
            if s == 13 and k == 4:
                L += [f'    <testcase classname="cart totals rounds half-even" name="cart totals rounds half-even" time="0.012">',
                      '      <failure message="expect(received).toBe(expected)">Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 10.02\nReceived: 10.03\n    at Object.&lt;anonymous&gt; (src/cart/totals.test.ts:88:27)</failure>', "    </testcase>"]
            else:
                L.append(f'    <testcase classname="{rid(6)} {rid(8)}" name="{rid(6)} {rid(8)} works" time="{R.uniform(0,0.2):.3f}"></testcase>')
        L.append("  </testsuite>")
    L.append("</testsuites>")
    w("junit.xml", "\n".join(L) + "\n", "rounds half-even expected 10.02 received 10.03 totals.test.ts:88")


def mix_small_ok():
    # a short successful run – must not be mangled
    L = ["$ npm run build", "", "> @shop/web@0.3.0 build", "> next build", "", "   ▲ Next.js 14.1.0", "", "   Creating an optimized production build ...", " ✓ Compiled successfully",
         " ✓ Linting and checking validity of types", " ✓ Collecting page data", " ✓ Generating static pages (14/14)", " ✓ Finalizing page optimization", "",
         "Route (app)                              Size     First Load JS", "┌ ○ /                                    5.2 kB         92.1 kB", "├ ○ /_not-found                          875 B          87.7 kB",
         "├ λ /api/checkout                        0 B                0 B", "├ ○ /cart                                12.4 kB         99.3 kB", "├ ● /products/[slug]                     3.1 kB         120 kB",
         "└ ○ /orders                              402 kB          489 kB", "+ First Load JS shared by all            86.8 kB", "", "○  (Static)   prerendered as static content", "λ  (Dynamic)  server-rendered on demand"]
    w("next_build.txt", "\n".join(L) + "\n", "/orders 402 kB route (largest)")


def main():
    for f in [kubectl_describe_pod, kubectl_get_events, kubectl_get_pods, kubectl_top_pods, helm_template, deploy_yaml, compose_logs, journalctl, nginx_error, nginx_access,
              postgres_log, app_python_log, app_java_log, go_panic, rust_panic, node_log, dmesg, syslog_noise_unique, mvn_fail, gradle_test, tsc, eslint_stylish, eslint_json,
              ruff, mypy, rspec, pytest_out, jest, go_test, go_vet, golangci, clippy, cargo_test, npm_eresolve, yarn_err, pip_resolver, terraform_apply, terraform_plan, ansible,
              docker_build, make_out, cmake_err, strace, valgrind, gdb_bt, aws_instances, gh_pr_list, gh_run_view, gh_run_log_failed, git_status, git_log_oneline, git_blame,
              git_show, ls_laR, du_h, ps_aux, top_b, df_h, ss_tlnp, env_dump, openapi, package_json, tsconfig, eslintrc_yaml, pyproject, compose_yaml, gha_workflow, csv_export,
              readme, man_page, html_doc, systemctl_status, apt_err, npm_ls, pip_list, kubectl_logs_json_many_warn, mcp_tools_list, stack_only_python, git_diff_color,
              kafka_consumer_groups, docker_ps, sql_explain, junit_xml, mix_small_ok]:
        f()
    with open(os.path.join(OUT, "needles.json"), "w") as fh:
        json.dump(NEEDLES, fh, indent=1)
    print(len(NEEDLES), "payloads")


# ---------------- second batch: tables with a needle by value ----------------

def docker_stats():
    L = ["CONTAINER ID   NAME                 CPU %     MEM USAGE / LIMIT     MEM %     NET I/O           BLOCK I/O         PIDS"]
    for i in range(60):
        cpu, mem, memp = f"{R.uniform(0,3):.2f}%", f"{R.randint(20,300)}MiB / 15.35GiB", f"{R.uniform(0.1,2):.2f}%"
        name = f"{R.choice(SVCS)}-{i}"
        if i == 37:
            name, cpu, mem, memp = "search-indexer-37", "387.44%", "11.2GiB / 15.35GiB", "72.96%"
        L.append(f"{hexs(12)}   {name:<20} {cpu:<9} {mem:<21} {memp:<9} {R.randint(1,900)}MB / {R.randint(1,900)}MB   {R.randint(0,90)}MB / 0B      {R.randint(1,60)}")
    w("docker_stats.txt", "\n".join(L) + "\n", "search-indexer-37 387% CPU 11.2GiB")


def kubectl_get_nodes():
    L = ["NAME                          STATUS     ROLES           AGE    VERSION"]
    for i in range(80):
        st = "Ready" if i != 53 else "NotReady"
        if i == 12: st = "Ready,SchedulingDisabled"
        L.append(f"ip-10-0-{i//10}-{R.randint(2,250)}.ec2.internal   {st:<10} {'control-plane' if i<3 else '<none>':<15} {R.randint(2,200)}d   v1.28.{R.choice([3,3,3,5])}")
    w("kubectl_get_nodes.txt", "\n".join(L) + "\n", "one NotReady node, one cordoned")


def systemctl_list_units():
    L = ["  UNIT                                   LOAD   ACTIVE SUB       DESCRIPTION"]
    for i in range(160):
        u = f"{rid(8)}.service"
        a, sub = "active", R.choice(["running", "exited"])
        mark = " "
        if i == 101:
            u, a, sub, mark = "shop-api.service", "failed", "failed", "\u25cf"
        L.append(f"{mark} {u:<38} loaded {a:<6} {sub:<9} {rid(6).capitalize()} {R.choice(['daemon','service','timer helper','agent'])}")
    L += ["", "LOAD   = Reflects whether the unit definition was properly loaded.", "ACTIVE = The high-level unit activation state, i.e. generalization of SUB.",
          "SUB    = The low-level unit activation state, values depend on unit type.", "160 loaded units listed. Pass --all to see loaded but inactive units, too."]
    w("systemctl_list_units.txt", "\n".join(L) + "\n", "shop-api.service failed")


def npm_outdated():
    L = ["Package                 Current   Wanted   Latest  Location                             Depended by"]
    for i in range(45):
        n = rid(7)
        c = f"{R.randint(1,5)}.{R.randint(0,9)}.{R.randint(0,9)}"
        L.append(f"{n:<24}{c:<10}{c:<9}{c[:-1]+str(R.randint(0,9)):<8}node_modules/{n:<24}web")
    L.insert(30, f"{'next':<24}{'12.3.4':<10}{'12.3.4':<9}{'15.0.3':<8}node_modules/{'next':<24}web")
    w("npm_outdated.txt", "\n".join(L) + "\n", "next 12 -> 15 major")


def git_log_full():
    L = []
    base = dt.datetime(2026, 11, 30)
    for i in range(120):
        d = base - dt.timedelta(hours=R.randint(0, 24 * 200))  # author dates not monotonic (rebases)
        L += [f"commit {hexs(40)}", f"Author: {R.choice(['Alice Smith','Bob Jones','Carol White'])} <dev@example.com>", f"Date:   {d.strftime('%a %b %d %H:%M:%S %Y')} +0000", "",
              f"    {R.choice(['fix','feat','chore'])}: {R.choice(['cart totals','webhooks retry','bump deps','coupon stacking'])} ({rid(4)})", ""]
        if i == 66:
            L[-2] = "    revert: drop EU VAT rounding (breaks invoices)"
    w("git_log_full.txt", "\n".join(L) + "\n", "the revert commit; date range")


def docker_images():
    L = ["REPOSITORY                              TAG        IMAGE ID       CREATED        SIZE"]
    for i in range(70):
        sz = f"{R.randint(40,400)}MB"
        repo = f"registry.example.com/{R.choice(SVCS)}"
        if i == 44:
            repo, sz = "registry.example.com/ml-worker", "9.87GB"
        L.append(f"{repo:<40}{'1.'+str(R.randint(0,30))+'.0':<11}{hexs(12)}   {R.randint(1,9)} weeks ago    {sz}")
    w("docker_images.txt", "\n".join(L) + "\n", "ml-worker 9.87GB")


def free_iostat():
    L = ["Linux 6.5.0-1014-aws (web-03) \t12/05/2026 \t_x86_64_\t(8 CPU)", "", "Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz  aqu-sz  %util"]
    for i in range(40):
        util = f"{R.uniform(0,8):.2f}"
        dev = f"loop{i}" if i > 1 else f"nvme{i}n1"
        if i == 1: util = "99.80"
        L.append(f"{dev:<12} {R.uniform(0,50):>8.2f} {R.uniform(0,900):>9.2f} {0:>8.2f} {0:>6.2f} {R.uniform(0,2):>7.2f} {R.uniform(4,60):>8.2f} {R.uniform(0,90):>7.2f} {R.uniform(0,900):>9.2f} {0:>8.2f} {0:>6.2f} {R.uniform(0,9) if i!=1 else 412.7:>7.2f} {R.uniform(4,60):>8.2f} {R.uniform(0,1):>7.2f} {util:>6}")
    w("iostat_x.txt", "\n".join(L) + "\n", "nvme1n1 99.8% util, w_await 412")


def main2():
    for f in [docker_stats, kubectl_get_nodes, systemctl_list_units, npm_outdated, git_log_full, docker_images, free_iostat]:
        f()


if __name__ == "__main__":
    main()
    main2()
    with open(os.path.join(OUT, "needles.json"), "w") as fh:
        json.dump(NEEDLES, fh, indent=1)
