import IOSiAPCore
import IOSiAPLocalStore

/// The page's HTML, CSS and JavaScript, served from the binary: no build step, no framework. The HTML holds the
/// forms; the script fills the tables from `/api/state` twice a second, with `textContent` only (a product
/// name from a `.storekit` file is never parsed as HTML), and sends the forms to `/api/control/NAME`.
enum PageResources {
    /// Escapes text for HTML content and double-quoted attributes.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private static func options(_ values: [(value: String, label: String)]) -> String {
        values.map { "<option value=\"\(escape($0.value))\">\(escape($0.label))</option>" }.joined()
    }

    private static func onOffForm(_ control: String, _ label: String) -> String {
        """
        <form data-control="\(control)"><label>\(label) <select name="value">\(options([("on", "on"), ("off", "off")]))</select></label>\
        <button>Set</button></form>
        """
    }

    /// The page, with the app's bundle id (escaped: it comes from the state directory). Not the token: see
    /// `TransactionManagerPage.address(host:port:)`.
    static func html(bundleID: String) -> String {
        let apis = StoreControl.apiNames.keys.sorted().map { ($0, $0) }
        let rates = TimeRate.allCases.map { (String($0.rawValue), "\($0)") }
        let storefronts = AppStoreStorefront.knownCodes.map { ($0, $0) }
        return """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Transaction Manager — \(escape(bundleID))</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        </head>
        <body>
        <header><h1>Transaction Manager</h1><span class="app">\(escape(bundleID))</span><span id="connection">connecting…</span></header>
        <div id="message" role="status" hidden></div>
        <main>
        <section>
        <h2>Transactions <small>newest first</small></h2>
        <table id="transactions"><thead><tr><th>id</th><th>original</th><th>product</th><th>type</th><th>qty</th><th>state</th>\
        <th>purchased</th><th>expires</th><th>refunded</th><th>finished</th><th>renews</th><th>offer</th><th>ownership</th>\
        <th>actions</th></tr></thead><tbody></tbody></table>
        <p id="no-transactions" class="empty">No transactions yet.</p>
        <div id="payload-box" hidden><h3 id="payload-title"></h3><pre id="payload"></pre></div>
        </section>
        <section>
        <h2>Waiting purchases <small>Ask to Buy, interrupted</small></h2>
        <table id="pending"><thead><tr><th>id</th><th>waits for</th><th>product</th><th>qty</th><th>asked</th><th>actions</th></tr></thead>\
        <tbody></tbody></table>
        <p id="no-pending" class="empty">Nothing waits.</p>
        </section>
        <section>
        <h2>Products <small>in the current storefront and locale; an offer code by its reference name</small></h2>
        <table id="products"><thead><tr><th>id</th><th>title</th><th>type</th><th>price</th><th>subscription</th><th>actions</th></tr></thead>\
        <tbody></tbody></table>
        </section>
        <section>
        <h2>Settings</h2>
        <table id="settings"><tbody></tbody></table>
        <div class="forms">
        <form data-control="storefront"><label>Storefront <select name="value">\(options(storefronts))</select></label><button>Set</button></form>
        <form data-control="locale"><label>Locale <input name="value" size="8" placeholder="de_DE" required></label><button>Set</button></form>
        <form data-control="app-version"><label>Original app version <input name="original" size="8" placeholder="1.0" required></label>\
        <label>current <input name="current" size="8" placeholder="optional"></label><button>Set</button></form>
        <form data-control="time-rate"><label>Time rate <select name="value">\(options(rates))</select></label><button>Set</button></form>
        \(onOffForm("ask-to-buy", "Ask to Buy"))
        \(onOffForm("interrupted", "Interrupted purchases"))
        \(onOffForm("billing-issues", "Billing issues"))
        \(onOffForm("grace-period", "Grace period"))
        <form data-control="dialog"><label>Purchase dialog <select name="value">\(options([("confirm", "confirm"), ("cancel", "cancel")]))</select>\
        </label><button>Set</button></form>
        <form data-control="error"><label>Simulated error for <select name="api">\(options(apis))</select></label>\
        <label><input name="error" size="20" placeholder="-104 or payment-not-allowed"></label>\
        <button name="action" value="set">Fail</button><button name="action" value="clear">Work</button></form>
        </div>
        </section>
        <section>
        <h2>Whole store</h2>
        <div class="forms">
        <form data-control="clear" data-confirm="Remove every transaction and waiting purchase?"><button>Clear transactions</button></form>
        <form data-control="reset" data-confirm="Clear the history and every setting override?"><button>Reset to defaults</button></form>
        </div>
        </section>
        </main>
        </body>
        </html>

        """
    }

    static let style = """
        body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #f5f5f7; }
        header { display: flex; gap: 1em; align-items: baseline; padding: .6em 1em; background: #1d1d1f; color: #fff; }
        header h1 { font-size: 1.2em; margin: 0; }
        header .app { opacity: .8; }
        #connection { margin-left: auto; font-size: .9em; }
        #connection.down { color: #ff6b6b; }
        main { padding: 0 1em 2em; }
        section { background: #fff; border-radius: 8px; padding: .5em 1em 1em; margin-top: 1em; overflow-x: auto; }
        h2 { font-size: 1.05em; } h2 small { font-weight: normal; color: #6e6e73; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: .25em .4em; border-bottom: 1px solid #e5e5ea; vertical-align: top; }
        th { font-weight: 600; color: #6e6e73; font-size: .9em; white-space: nowrap; }
        /* Cells wrap between words, product ids after their dots (productId() puts a <wbr> there), so that a row and
           its actions fit the page; a word breaks only when nothing else fits; each form stays whole. */
        td { overflow-wrap: break-word; }
        td form { display: inline-flex; gap: .25em; margin: .1em .5em .1em 0; white-space: nowrap; }
        .state-refunded, .state-expired { color: #b3261e; font-weight: 600; }
        .state-active { color: #1b7f3b; font-weight: 600; }
        .state-billing-retry, .state-grace-period { color: #b26a00; font-weight: 600; }
        .empty { color: #6e6e73; }
        .forms { display: flex; flex-wrap: wrap; gap: .5em 1.5em; margin-top: .8em; }
        .forms form { display: flex; gap: .3em; align-items: center; }
        #message { position: sticky; top: 0; padding: .6em 1em; font-weight: 600; }
        #message.ok { background: #d8f5e0; color: #14532d; }
        #message.error { background: #fde2e1; color: #7f1d1d; }
        pre { background: #f5f5f7; padding: .8em; max-height: 16em; overflow: auto; white-space: pre-wrap; word-break: break-all; }
        button { cursor: pointer; }
        input[name=quantity] { width: 3em; }

        """

    static let script = #"""
        "use strict";
        // The transaction manager's page: polls /api/state and fills the tables (textContent only), sends the
        // forms to /api/control/NAME with the page's token, and shows what each did. The token comes in the
        // address serve printed, after "#token="; it is kept for this tab (a reload still works) and taken
        // out of the address bar.
        const token = (() => {
          const match = /^#token=([0-9a-f]{64})$/.exec(location.hash);
          if (match) {
            sessionStorage.setItem("iosiap-token", match[1]);
            history.replaceState(null, "", location.pathname);
          }
          return sessionStorage.getItem("iosiap-token") || "";
        })();
        const shown = {};

        function element(tag, text, attributes) {
          const node = document.createElement(tag);
          if (text !== undefined && text !== null) node.textContent = String(text);
          for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
          return node;
        }

        // A small form sending one control, with hidden fields and visible inputs.
        function controlForm(control, label, hidden, inputs, confirmText) {
          const form = element("form", null, { "data-control": control });
          if (confirmText) form.dataset.confirm = confirmText;
          for (const [name, value] of Object.entries(hidden)) form.append(element("input", null, { type: "hidden", name: name, value: value }));
          for (const input of inputs || []) form.append(input);
          form.append(element("button", label, { class: control }));
          return form;
        }

        function select(name, values) {
          const node = element("select", null, { name: name });
          for (const value of values) node.append(element("option", value, { value: value }));
          return node;
        }

        // A choice the tester must make: a placeholder first, and the form is not sent until another is chosen.
        function requiredSelect(name, placeholder, choices) {
          const node = element("select", null, { name: name, required: "" });
          node.append(element("option", placeholder, { value: "", disabled: "", selected: "" }));
          for (const [value, label] of choices) node.append(element("option", label, { value: value }));
          return node;
        }

        // A product id that may wrap after each dot, not inside a word (copied, it is the id: <wbr> adds no text).
        function productId(id) {
          const node = element("span");
          id.split(".").forEach((part, index, parts) => {
            node.append(part + (index < parts.length - 1 ? "." : ""));
            if (index < parts.length - 1) node.append(element("wbr"));
          });
          return node;
        }

        function row(cells, attributes) {
          const tr = element("tr", null, attributes);
          for (const cell of cells) {
            const td = element("td");
            if (cell instanceof Node) td.append(cell); else td.textContent = cell === undefined ? "" : String(cell);
            tr.append(td);
          }
          return tr;
        }

        // A row's control, named by the row's first data attribute (its transaction, pending purchase or product),
        // its form's control and its own name.
        function controlKey(node) {
          const row = node.closest("tr");
          return JSON.stringify([Object.entries(row.dataset)[0] || null, node.form ? node.form.dataset.control : "", node.name]);
        }

        // Draws a table's rows again; what the tester chose or typed in a row's controls (a refund's reason, a
        // quantity) stays through the redraw.
        function fill(id, rows, emptyId) {
          const body = document.querySelector("#" + id + " tbody");
          const controls = "tr select, tr input:not([type=hidden])";
          const kept = {};
          for (const node of body.querySelectorAll(controls)) kept[controlKey(node)] = node.value;
          body.replaceChildren(...rows);
          for (const node of body.querySelectorAll(controls)) {
            const value = kept[controlKey(node)];
            if (value !== undefined) node.value = value;
          }
          if (emptyId) document.getElementById(emptyId).hidden = rows.length > 0;
        }

        function transactionRow(t) {
          const actions = element("span");
          if (t.state !== "refunded") {
            actions.append(controlForm("refund", "Refund", { transactionId: t.id }, [requiredSelect("reason", "reason…", [["other", "other reason"], ["issue", "an issue in the app"]])]));
            if (t.ownership === "FAMILY_SHARED") actions.append(controlForm("stop-family-sharing", "Stop sharing", { transactionId: t.id }));
          }
          if (t.type === "autoRenewable" && (t.state === "active" || t.state === "grace period")) {
            actions.append(controlForm("expire", "Expire", { product: t.productId }));
            if (t.renews === "yes") actions.append(controlForm("renew", "Renew now", { product: t.productId }));
            actions.append(controlForm("auto-renew", t.renews === "yes" ? "Auto-renew off" : "Auto-renew on",
                                       { product: t.productId, value: t.renews === "yes" ? "off" : "on" }));
          }
          if (t.state === "billing retry" || t.state === "grace period") {
            actions.append(controlForm("resolve-billing", "Resolve billing", { product: t.productId }));
          }
          const payload = element("button", "Payload", { type: "button", class: "payload" });
          payload.addEventListener("click", () => showPayload(t.id));
          actions.append(payload);
          actions.append(controlForm("delete", "Delete", { transactionId: t.id }, [], "Delete transaction " + t.id + "?"));
          const state = element("span", t.state, { class: "state state-" + t.state.replace(/ /g, "-") });
          const when = date => date.replace("T", " ");  // ISO 8601 with a space: a date wraps before its time
          return row([t.id, t.originalId, productId(t.productId), t.type, t.quantity, state, when(t.purchaseDate), when(t.expirationDate), when(t.revocationDate),
                      t.finished ? "yes" : "no", t.renews, t.offer, t.ownership, actions],
                     { "data-transaction": t.id, "data-product": t.productId, "data-state": t.state });
        }

        function pendingRow(p) {
          const actions = element("span");
          if (p.waitsFor === "approval") {
            actions.append(controlForm("approve", "Approve", { pendingId: p.id }), controlForm("decline", "Decline", { pendingId: p.id }));
          } else {
            actions.append(controlForm("resolve", "Resolve", { pendingId: p.id }));
          }
          return row([p.id, p.waitsFor, productId(p.productId), p.quantity, p.requestDate, actions], { "data-pending": p.id });
        }

        function productRow(p) {
          const quantity = element("input", null, { name: "quantity", value: "1", inputmode: "numeric" });
          const actions = element("span");
          actions.append(controlForm("buy", "Buy", { product: p.id }, [quantity]),
                         controlForm("intent", "App Store purchase", { product: p.id }));
          if (p.familyShareable) actions.append(controlForm("buy", "Family member buys", { product: p.id, family: "on" }));
          if (p.type === "autoRenewable") {
            const code = element("input", null, { name: "offer", size: "12", placeholder: "offer code" });
            actions.append(controlForm("redeem-code", "Redeem code", { product: p.id }, [code]));
            actions.append(controlForm("message", "App Store message", { product: p.id },
                                       [select("kind", ["price-increase", "billing-issue", "win-back", "generic"])]));
          }
          return row([productId(p.id), p.title, p.type, p.price, p.subscription, actions], { "data-product": p.id });
        }

        function render(state) {
          const parts = {
            transactions: () => fill("transactions", state.transactions.map(transactionRow), "no-transactions"),
            pending: () => fill("pending", state.pending.map(pendingRow), "no-pending"),
            products: () => fill("products", state.products.map(productRow)),
            settings: () => fill("settings", state.settings.map(pair => row(pair))),
          };
          // A part is drawn again only when it changed, so a form being filled in elsewhere keeps its input.
          for (const [name, draw] of Object.entries(parts)) {
            const text = JSON.stringify(state[name]);
            if (shown[name] !== text) { shown[name] = text; draw(); }
          }
        }

        async function refresh() {
          const connection = document.getElementById("connection");
          try {
            const response = await fetch("/api/state", { headers: { "X-IOSiAP-Token": token }, cache: "no-store" });
            const body = await response.json();
            if (!response.ok) throw new Error(body.message || response.statusText);
            render(body);
            connection.textContent = "live";
            connection.className = "";
          } catch (error) {
            connection.textContent = "not connected: " + error.message;
            connection.className = "down";
          }
        }

        function say(text, ok) {
          const message = document.getElementById("message");
          message.textContent = text;
          message.className = ok ? "ok" : "error";
          message.hidden = false;
        }

        async function showPayload(id) {
          const response = await fetch("/api/payload?transactionId=" + encodeURIComponent(id), { headers: { "X-IOSiAP-Token": token } });
          const body = await response.json();
          if (!response.ok) { say(body.message, false); return; }
          document.getElementById("payload-title").textContent = "Signed payload of transaction " + id;
          document.getElementById("payload").textContent = JSON.stringify(body, null, 2);
          document.getElementById("payload-box").hidden = false;
        }

        document.addEventListener("submit", async event => {
          const form = event.target.closest("form[data-control]");
          if (!form) return;
          event.preventDefault();
          if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
          const fields = new URLSearchParams(new FormData(form, event.submitter));
          try {
            const response = await fetch("/api/control/" + encodeURIComponent(form.dataset.control), {
              method: "POST", headers: { "X-IOSiAP-Token": token }, body: fields,
            });
            const body = await response.json();
            say(body.message, response.ok);
          } catch (error) {
            say(form.dataset.control + ": " + error.message, false);
          }
          refresh();
        });

        refresh();
        setInterval(refresh, 500);

        """#
}
