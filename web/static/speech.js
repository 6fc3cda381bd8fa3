  // speech.js: the table page's Read aloud, inlined into page.js's closure where it says /*SPEECH*/ (web/server.py,
  // page_bytes), so it shares page.js's helpers ($, t) and page.js's draw() calls its readAloud(state).
  // -- reading each commit aloud (docs/web.md, "Accessibility"): the browser's own voice, off until a viewer turns it on

  const SPEAK_KEY = "banker.readAloud";
  const speech = { on: false, heard: null, lang: "en", last: null, state: null };  // heard: the newest entry already seen

  // What is said for journal entries: each one's sentence, then the balance now of each player they name; the
  // server words the amounts for a voice in the game's language ("2.5 million", not "two point five M": docs/web.md).
  function spoken(entries, s) {
    const told = [], names = new Set();
    for (const e of entries) {
      const text = (e.heard || e.memo).trim();
      told.push(/[.!?]$/.test(text) ? text : text + ".");
      (e.says || []).forEach((part, i) => { if (i % 2) names.add(part); });
    }
    let text = told.join(" ");
    for (const p of [...names].map((name) => s.players.find((q) => q.name === name)).filter(Boolean)) {
      text += " " + t("{name} has {amount}.", { name: p.name, amount: p.balance_said });
    }
    return text;
  }

  function say(text) {
    const synth = window.speechSynthesis;
    if (!synth || !window.SpeechSynthesisUtterance) return;
    const u = new SpeechSynthesisUtterance(text);
    u.lang = speech.lang;
    u.onerror = (ev) => {  // a browser speaks only after the viewer has touched the page once (a stored "on")
      if (ev.error !== "not-allowed") return;
      speakNote(t("Touch or click the page once to let this browser speak."));
      const heard = () => speakNote("");
      document.addEventListener("pointerdown", heard, { once: true });
      document.addEventListener("keydown", heard, { once: true });
    };
    if (synth.pending) synth.cancel();  // a newer commit replaces older ones still waiting: the table never lags
    synth.speak(u);
  }

  function readAloud(s) {
    speech.state = s;
    speech.lang = s.language || "en";
    const last = s.journal.length ? s.journal[s.journal.length - 1].id : 0;
    if (speech.heard === null || last < speech.heard) { speech.heard = last; return; }  // the page opened: nothing new
    const fresh = s.journal.filter((e) => e.id > speech.heard);
    speech.heard = last;
    if (speech.on && fresh.length) say(spoken(fresh.slice(-3), s));  // back after a while: only the latest few
  }

  const speakNote = (text) => { $("speak-note").hidden = !text; $("speak-note").textContent = text || ""; };

  function setSpeaking(on, remember) {
    speech.on = on;
    const button = $("speak");
    button.setAttribute("aria-pressed", String(on));
    $("speak-state").textContent = on ? t("on") : t("off");
    speakNote(on && !window.speechSynthesis ? t("This browser cannot speak.") : "");
    if (remember) {
      try { localStorage.setItem(SPEAK_KEY, on ? "on" : "off"); } catch (e) { /* storage off: not remembered */ }
    }
  }

  $("speak").addEventListener("click", () => {
    setSpeaking(!speech.on, true);
    if (!window.speechSynthesis) return;
    if (!speech.on) { window.speechSynthesis.cancel(); return; }
    const s = speech.state, last = s && s.journal[s.journal.length - 1];
    say(last ? spoken([last], s) : t("Reading each transaction aloud."));  // at once, so that the viewer hears it works
  });
  try { setSpeaking(localStorage.getItem(SPEAK_KEY) === "on", false); } catch (e) { setSpeaking(false, false); }
