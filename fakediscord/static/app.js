// The sandbox's Discord client: renders Discord's own message payloads and acts through the
// fake Discord's control API (fakediscord/web.py). Plain JS, no build step.
"use strict";

const $ = (selector) => document.querySelector(selector);
const USER_KEY = "gatekeeper-sandbox-user";  // per tab: sessionStorage

const state = {
  me: sessionStorage.getItem(USER_KEY),
  world: null,             // sandbox, users, players, channels, commands
  messages: new Map(),     // id -> Discord message payload (+ ephemeral)
  current: null,           // channel id on screen
  unread: new Map(),       // channel id -> count
  clockOffset: 0,          // sandbox clock minus this browser's clock, in seconds
  socket: null,
  command: null,           // the slash command being filled in
  stuck: true,             // the view follows the newest message
  lastTop: 0,              // the message list's scroll position when last seen
};

// ------------------------------------------------------------------ talking to the sandbox
async function api(path, body) {
  const response = await fetch(`/sandbox/${path}`, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (answer.error) throw new Error(answer.error);
  return answer;
}

async function act(path, body) {
  // Clicks, selects, commands and modals: show a modal when the bot answers with one.
  try {
    const answer = await api(path, {user: state.me, ...body});
    if (answer.modal) openModal(answer.modal, answer.interaction);
    if (answer.failed) toast(`This interaction failed: ${answer.failed}.`);
    return answer;
  } catch (error) {
    toast(error.message);
    return null;
  }
}

function connect() {
  if (state.socket) state.socket.close();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/sandbox/live?user=${state.me || ""}`);
  state.socket = socket;
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    if (state.socket === socket) setTimeout(connect, 1000);
  };
}

function receive(event) {
  if (event.type === "hello") {
    state.messages = new Map(event.messages.map((m) => [m.id, m]));
    setWorld(event);
    if (event.me === null) {
      sessionStorage.removeItem(USER_KEY);
      state.me = null;
      showPicker();
      return;
    }
    $("#user-picker").hidden = true;
    if (!state.current || !channel(state.current)) state.current = event.channels[0].id;
    renderAll();
  } else if (event.type === "world") {
    setWorld(event);
    if (state.me) renderSidebar(); else showPicker();
  } else if (event.type === "message") {
    state.clockOffset = event.now - Date.now() / 1000;  // the sandbox's clock may be a fake one
    upsert(event.message);
  } else if (event.type === "delete") {
    state.messages.delete(event.id);
    const element = document.querySelector(`[data-message-id="${event.id}"]`);
    if (element) {
      sizes.unobserve(element);
      element.remove();
    }
  }
}

function setWorld(world) {
  state.world = world;
  state.clockOffset = world.now - Date.now() / 1000;
  $("#database").textContent = world.sandbox.database;
  $("#guild-name").textContent = world.sandbox.guild;
}

const channel = (id) => state.world.channels.find((c) => c.id === id);
const userName = (id) => state.world.users[id] || "unknown user";
const byId = (a, b) => (a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0);

// ------------------------------------------------------------------ who am I
function showPicker() {
  const list = $("#player-list");
  list.replaceChildren(...state.world.players.map((id) => {
    const button = el("button", {className: "player", type: "button"},
      avatar(id, userName(id)), userName(id));
    button.onclick = () => become(id);
    return button;
  }));
  $("#user-picker").hidden = false;
  $("#new-user-name").focus();
}

function become(id) {
  state.me = id;
  sessionStorage.setItem(USER_KEY, id);
  state.current = null;
  state.unread.clear();
  connect();
}

$("#add-user-form").onsubmit = async (event) => {
  event.preventDefault();
  const name = $("#new-user-name").value.trim();
  if (!name) return;
  try {
    const user = await api("users", {name});
    $("#new-user-name").value = "";
    become(user.id);
  } catch (error) {
    toast(error.message);
  }
};
$("#switch-user").onclick = showPicker;
// The tab's Discord language: the bot answers this person in it (a server's channel keeps the
// server's language).
$("#language").onchange = async (event) => {
  const answer = await act("locale", {locale: event.target.value});
  if (answer) state.world.locale = answer.locale;
};

// ------------------------------------------------------------------ sidebar
function renderSidebar() {
  const list = $("#channel-list");
  const text = state.world.channels.filter((c) => c.kind === "text");
  const items = [el("div", {className: "section-title"}, "Text channels")];
  for (const c of text) {
    items.push(channelButton(c, "#", c.name));
    for (const t of state.world.channels.filter((x) => x.kind === "thread" && x.parent_id === c.id)) {
      items.push(channelButton(t, "↳", t.name, "thread"));
    }
  }
  items.push(el("div", {className: "section-title"}, "Direct messages"));
  for (const c of state.world.channels.filter((x) => x.kind === "dm")) {
    items.push(channelButton(c, "@", state.world.sandbox.bot, "dm"));
  }
  list.replaceChildren(...items);
  $("#me-name").textContent = userName(state.me);
  const language = $("#language");
  language.replaceChildren(...state.world.locales.map((code) => el("option", {value: code}, code)));
  language.value = state.world.locale;
  $("#me-avatar").replaceWith(Object.assign(avatar(state.me, userName(state.me)), {id: "me-avatar"}));
}

function channelButton(c, sigil, name, kind = "") {
  const unread = state.unread.get(c.id) || 0;
  const classes = ["channel", kind, c.id === state.current ? "current" : "", unread ? "unread" : ""];
  const button = el("button", {className: classes.join(" ").trim(), type: "button"},
    el("span", {className: "sigil"}, sigil), el("span", {className: "channel-name"}, name));
  button.dataset.channelId = c.id;
  button.setAttribute("aria-label", kind === "dm" ? `Direct messages with ${name}` : name);
  if (unread && kind === "dm") button.append(el("span", {className: "badge"}, String(unread)));
  button.onclick = () => openChannel(c.id);
  return button;
}

// on a phone the channel list slides over the messages, opened by the header's button and
// closed by picking a channel or by a tap beside it
$("#show-channels").onclick = () => document.body.classList.toggle("channels-open");
$("#main").addEventListener("click", (event) => {
  if (!document.body.classList.contains("channels-open") || event.target.closest("#show-channels")) return;
  event.preventDefault();
  event.stopPropagation();
  document.body.classList.remove("channels-open");
}, true);

function openChannel(id, messageId) {
  document.body.classList.remove("channels-open");
  state.current = id;
  state.unread.delete(id);
  closeCommand();
  renderAll();
  if (messageId) {
    const target = document.querySelector(`[data-message-id="${messageId}"]`);
    if (target) {
      target.scrollIntoView({block: "center"});
      target.classList.add("highlight");
      setTimeout(() => target.classList.remove("highlight"), 2000);
    }
  }
}

// ------------------------------------------------------------------ messages
function renderAll() {
  renderSidebar();
  const c = channel(state.current);
  const title = c.kind === "dm" ? `@${state.world.sandbox.bot}` : `${c.kind === "thread" ? "↳" : "#"} ${c.name}`;
  $("#channel-title").textContent = title;
  $("#channel-topic").textContent = c.kind === "dm"
    ? "Your private messages from the bot: hands, cards, secrets"
    : "Type / for the bot's commands";
  $("#message-input").placeholder = c.kind === "dm" ? `Message @${state.world.sandbox.bot}` : `Message ${title}`;
  const shown = [...state.messages.values()].filter((m) => m.channel_id === state.current)
    .sort((a, b) => byId(a.id, b.id));
  const box = $("#messages");
  sizes.disconnect();
  sizes.observe(box);
  box.replaceChildren(...(shown.length ? shown.map(renderMessage)
    : [el("div", {className: "empty"}, c.kind === "dm" ? "No messages from the bot yet."
      : "No messages yet. Try /play.")]));
  for (const element of box.children) regroup(element);
  stickToBottom();
}

// ------------------------------------------------------------------ following the newest message
// The view follows the newest message while the reader is at the bottom ("stuck"): a message
// that grows (its pictures loading, an edit, the emoji font arriving) keeps the view at the
// bottom. A reader who scrolls up stays where they are, and a pill offers the way back down.
const sizes = new ResizeObserver(() => { if (state.stuck) scrollToBottom(); });

function scrollToBottom() {
  const box = $("#messages");
  box.scrollTop = box.scrollHeight;
  state.lastTop = box.scrollTop;
}

function stickToBottom() {
  state.stuck = true;
  $("#new-messages").hidden = true;
  scrollToBottom();
}

function nearBottom(box) {
  return box.scrollHeight - box.scrollTop - box.clientHeight < 24;
}

$("#messages").addEventListener("scroll", () => {
  const box = $("#messages");
  if (nearBottom(box)) {
    state.stuck = true;
    $("#new-messages").hidden = true;
  } else if (box.scrollTop < state.lastTop - 1) {
    state.stuck = false;  // only the reader moves the view up: growth below never does
  }
  state.lastTop = box.scrollTop;
});
$("#new-messages").onclick = stickToBottom;

function upsert(message) {
  const known = state.messages.has(message.id);
  state.messages.set(message.id, message);
  if (message.channel_id !== state.current) {
    if (!known) {
      state.unread.set(message.channel_id, (state.unread.get(message.channel_id) || 0) + 1);
      renderSidebar();
    }
    return;
  }
  const box = $("#messages");
  const element = renderMessage(message);
  const old = box.querySelector(`[data-message-id="${message.id}"]`);
  if (old) {
    sizes.unobserve(old);
    old.replaceWith(element);
  } else {
    box.querySelector(".empty")?.remove();
    const after = [...box.children].find((x) => byId(x.dataset.messageId, message.id) > 0);
    box.insertBefore(element, after || null);
  }
  regroup(element);
  if (element.nextElementSibling) regroup(element.nextElementSibling);
  if (!known && message.author.id === state.me) stickToBottom();
  else if (state.stuck) scrollToBottom();
  else if (!known) $("#new-messages").hidden = false;
}

function renderMessage(m) {
  const author = m.author;
  const body = el("div", {className: "body"});
  if (m.interaction_metadata) {
    const who = m.interaction_metadata.user;
    const what = m.interaction_metadata.name ? `used /${m.interaction_metadata.name}` : "clicked";
    body.append(el("div", {className: "reply-line"}, "↳ ",
      el("span", {className: "name"}, who.global_name || who.username), ` ${what}`));
  }
  const head = el("div", {className: "head"}, el("span", {className: "author"}, author.global_name || author.username));
  if (author.bot) head.append(el("span", {className: "app-tag"}, "APP"));
  head.append(el("span", {className: "time"}, clockTime(m.timestamp)));
  body.append(head);
  if (m.flags & 128) body.append(el("div", {className: "loading"}, `${author.username} is thinking…`));
  if (m.flags & COMPONENTS_V2) {
    // the whole message is its component tree: no content, no embeds, files only where placed
    for (const c of m.components || []) body.append(renderComponent(c, m));
    if (m.edited_timestamp) body.append(el("span", {className: "edited"}, "(edited)"));
  } else {
    renderClassic(m, body);
  }
  if (m.ephemeral) {
    const dismiss = el("button", {type: "button"}, "Dismiss message");
    dismiss.onclick = () => {
      state.messages.delete(m.id);
      sizes.unobserve(wrapper);
      wrapper.remove();
    };
    body.append(el("div", {className: "ephemeral-note"}, "👁 Only you can see this · ", dismiss));
  }
  const wrapper = el("article", {className: "message"}, avatar(author.id, author.global_name || author.username), body);
  wrapper.dataset.messageId = m.id;
  sizes.observe(wrapper);
  if (m.edited_timestamp) wrapper.dataset.edited = m.edited_timestamp;
  wrapper.dataset.author = author.id;
  wrapper.dataset.time = String(Date.parse(m.timestamp));
  if (m.interaction_metadata || m.ephemeral) wrapper.dataset.interaction = "yes";
  if (m.ephemeral) wrapper.classList.add("ephemeral");
  if (mentionsMe(m)) wrapper.classList.add("mentions-me");
  return wrapper;
}

function mentionsMe(m) {
  const texts = [m.content || "", ...walk(m.components || []).filter((c) => c.type === 10).map((c) => c.content || "")];
  return texts.some((text) => text.includes(`<@${state.me}>`) || text.includes(`<@!${state.me}>`));
}

function walk(components) {
  // every component of a tree, containers' and sections' children included
  return components.flatMap((c) => [c, ...walk([...(c.components || []), ...(c.accessory ? [c.accessory] : [])])]);
}

function renderClassic(m, body) {
  // content, embeds, attachments and action rows, as Discord shows a message without components v2
  if (m.content) {
    const content = el("div", {className: "content"});
    content.innerHTML = markdown(m.content);
    if (m.edited_timestamp) content.append(el("span", {className: "edited"}, " (edited)"));
    body.append(content);
  }
  const inEmbeds = new Set();
  for (const embed of m.embeds || []) body.append(renderEmbed(embed, m, inEmbeds));
  for (const file of m.attachments || []) {
    if (inEmbeds.has(file.filename)) continue;
    if ((file.content_type || "").startsWith("image/")) {
      // a file's description is its alt text, as Discord shows it (the file name otherwise)
      const picture = image(file.url, file.description || file.filename, file);
      picture.title = file.description || "";
      const frame = el("div", {className: "attachment"}, picture);
      if (file.description) frame.append(el("span", {className: "alt-tag", title: file.description}, "ALT"));
      body.append(frame);
    } else {
      body.append(el("a", {className: "file", href: file.url, download: file.filename}, file.filename));
    }
  }
  for (const row of m.components || []) body.append(renderRow(row, m));
}

// ------------------------------------------------------------------ components v2
const COMPONENTS_V2 = 1 << 15;

function renderComponent(c, m) {
  switch (c.type) {
    case 1: return renderRow(c, m);
    case 2: return el("div", {className: "row"}, renderButton(c, m));
    case 3: return el("div", {className: "row"}, renderSelect(c, m));
    case 9: return renderSection(c, m);
    case 10: return textDisplay(c);
    case 11: return el("div", {className: "v2-thumbnail-alone"}, thumbnail(c, m));
    case 12: return mediaGallery(c, m);
    case 13: return fileComponent(c, m);
    case 14: return separator(c);
    case 17: return container(c, m);
    default: return el("div", {className: "unsupported"}, `(a component of type ${c.type} this sandbox does not show)`);
  }
}

function container(c, m) {
  const box = el("div", {className: "v2-container"});
  if (c.accent_color != null) {
    box.classList.add("accented");
    box.style.borderLeftColor = `#${c.accent_color.toString(16).padStart(6, "0")}`;
  }
  for (const child of c.components || []) box.append(renderComponent(child, m));
  if (c.spoiler) return hidden(box);
  return box;
}

function textDisplay(c) {
  const text = el("div", {className: "content v2-text"});
  text.innerHTML = markdown(c.content || "");
  return text;
}

function renderSection(c, m) {
  const texts = el("div", {className: "v2-section-text"}, ...(c.components || []).map((t) => renderComponent(t, m)));
  const section = el("div", {className: "v2-section"}, texts);
  const accessory = c.accessory;
  if (accessory?.type === 11) section.append(el("div", {className: "v2-accessory"}, thumbnail(accessory, m)));
  else if (accessory?.type === 2) section.append(el("div", {className: "v2-accessory"}, renderButton(accessory, m)));
  return section;
}

function media(item, m, className) {
  // a picture with its alt text as the img's alt and as its hover title (Discord's "ALT" tag)
  const file = attachmentFile(item.media?.url, m);
  const url = file ? file.url : item.media?.url;
  const alt = item.description || "";
  const picture = image(url, alt, file);
  picture.title = alt;
  const frame = el("div", {className}, picture);
  if (alt) frame.append(el("span", {className: "alt-tag", title: alt}, "ALT"));
  return item.spoiler ? hidden(frame) : frame;
}

function thumbnail(c, m) {
  return media(c, m, "v2-thumbnail");
}

function mediaGallery(c, m) {
  const items = c.items || [];
  const gallery = el("div", {className: `v2-gallery count-${Math.min(items.length, 4)}`});
  for (const item of items) gallery.append(media(item, m, "v2-media"));
  return gallery;
}

function fileComponent(c, m) {
  const file = attachmentFile(c.file?.url, m);
  const link = el("a", {className: "file", href: file ? file.url : "#", download: file ? file.filename : ""},
    file ? file.filename : "missing file");
  return c.spoiler ? hidden(link) : link;
}

function separator(c) {
  const line = el("div", {className: `v2-separator spacing-${c.spacing === 2 ? "large" : "small"}`});
  if (c.divider !== false) line.append(el("hr"));
  return line;
}

function hidden(node) {
  // a spoiler: blurred until clicked, as in Discord
  const cover = el("div", {className: "v2-spoiler"}, node, el("span", {className: "spoiler-tag"}, "SPOILER"));
  cover.addEventListener("click", (event) => {
    if (cover.classList.contains("shown")) return;
    event.stopPropagation();
    event.preventDefault();
    cover.classList.add("shown");
  }, true);
  return cover;
}

function attachmentFile(url, m) {
  if (!url || !url.startsWith("attachment://")) return null;
  const name = url.slice("attachment://".length);
  return (m.attachments || []).find((a) => a.filename === name) || null;
}

function renderEmbed(embed, m, inEmbeds) {
  const box = el("div", {className: "embed"});
  box.style.borderLeftColor = embed.color != null ? `#${embed.color.toString(16).padStart(6, "0")}` : "#1e1f22";
  const thumbnail = embed.thumbnail && attachmentUrl(embed.thumbnail.url, m, inEmbeds);
  if (thumbnail) box.append(Object.assign(image(thumbnail, "thumbnail"), {className: "embed-thumbnail"}));
  if (embed.author?.name) box.append(el("div", {className: "embed-author"}, embed.author.name));
  if (embed.title) {
    const title = el("div", {className: "embed-title"});
    title.innerHTML = markdown(embed.title);
    box.append(title);
  }
  if (embed.description) {
    const description = el("div", {className: "embed-description"});
    description.innerHTML = markdown(embed.description);
    box.append(description);
  }
  if (embed.fields?.length) {
    const fields = el("div", {className: "embed-fields"});
    for (const f of embed.fields) {
      const value = el("div", {className: "embed-field-value"});
      value.innerHTML = markdown(f.value);
      const name = el("div", {className: "embed-field-name"});
      name.innerHTML = markdown(f.name);
      fields.append(el("div", {className: `embed-field${f.inline ? " inline" : ""}`}, name, value));
    }
    box.append(fields);
  }
  const picture = embed.image && attachmentUrl(embed.image.url, m, inEmbeds);
  if (picture) box.append(el("div", {className: "embed-image"}, image(picture, "image")));
  if (embed.footer?.text) box.append(el("div", {className: "embed-footer"}, embed.footer.text));
  return box;
}

function attachmentUrl(url, m, inEmbeds) {
  if (!url) return null;
  if (!url.startsWith("attachment://")) return url;
  const file = attachmentFile(url, m);
  if (!file) return null;
  inEmbeds.add(file.filename);
  return file.url;
}

function image(url, alt, file = null) {
  const img = el("img", {src: url, alt});
  if (file?.width && file?.height) Object.assign(img, {width: file.width, height: file.height});
  img.onclick = () => {
    const zoom = el("div", {id: "zoom"}, el("img", {src: url, alt}));
    zoom.onclick = () => zoom.remove();
    document.body.append(zoom);
  };
  return img;
}

function regroup(element) {
  // Discord folds a run of messages from one author (within minutes) under one name
  const before = element.previousElementSibling;
  const follows = before && before.dataset.author === element.dataset.author && !element.dataset.interaction
    && Number(element.dataset.time) - Number(before.dataset.time) < 7 * 60 * 1000;
  element.classList.toggle("grouped", !!follows);
}

// ------------------------------------------------------------------ buttons and selects
function renderRow(row, m) {
  const box = el("div", {className: "row"});
  for (const c of row.components || []) {
    if (c.type === 2) box.append(renderButton(c, m));
    else if (c.type === 3) box.append(renderSelect(c, m));
  }
  return box;
}

function renderButton(c, m) {
  const parts = [];
  if (c.emoji) parts.push(el("span", {className: "emoji"}, c.emoji.id ? `:${c.emoji.name}:` : c.emoji.name));
  if (c.label) parts.push(el("span", {className: "label"}, c.label));
  if (c.style === 5) {
    return el("a", {className: "btn style-5", href: c.url, target: "_blank", rel: "noopener"}, ...parts, " ↗");
  }
  const button = el("button", {className: `btn style-${c.style || 2}`, type: "button", disabled: !!c.disabled}, ...parts);
  button.dataset.customId = c.custom_id;
  button.onclick = async () => {
    button.classList.add("busy");
    await act("click", {message: m.id, custom_id: c.custom_id});
    button.classList.remove("busy");
  };
  return button;
}

function renderSelect(c, m) {
  const select = el("select", {className: "menu", disabled: !!c.disabled, multiple: (c.max_values || 1) > 1});
  select.dataset.customId = c.custom_id;
  select.setAttribute("aria-label", c.placeholder || "Make a selection");
  if (!select.multiple) select.append(el("option", {value: "", disabled: true, selected: true}, c.placeholder || "Make a selection"));
  for (const o of c.options || []) {
    const label = o.emoji ? `${o.emoji.name} ${o.label}` : o.label;
    select.append(el("option", {value: o.value, title: o.description || ""}, o.description ? `${label} · ${o.description}` : label));
  }
  const send = () => act("select", {message: m.id, custom_id: c.custom_id,
    values: [...select.selectedOptions].map((o) => o.value)});
  if (!select.multiple) {
    select.onchange = send;
    return select;
  }
  const done = el("button", {className: "btn style-1", type: "button"}, "Choose");
  done.onclick = send;
  return el("div", {className: "row"}, select, done);
}

// ------------------------------------------------------------------ modals
function openModal(modal, interaction) {
  $("#modal-title").textContent = modal.title;
  const fields = [];
  const inputs = [];
  for (const top of modal.components || []) {
    // classic: an action row around a text input; newer: a label around any input
    const parts = top.type === 18 ? [{...top.component, label: top.label, description: top.description}] : top.components || [];
    for (const c of parts) {
      const input = c.type === 4
        ? el(c.style === 2 ? "textarea" : "input", {value: c.value || "", placeholder: c.placeholder || "",
          required: c.required !== false, maxLength: c.max_length || 4000, minLength: c.min_length || 0})
        : el("select", {}, ...(c.options || []).map((o) => el("option", {value: o.value}, o.label)));
      if (c.type === 4 && c.value) input.value = c.value;
      input.dataset.customId = c.custom_id;
      input.dataset.kind = c.type === 4 ? "text" : "select";
      input.id = `field-${c.custom_id}`;
      inputs.push(input);
      const field = el("div", {className: "field"}, el("label", {htmlFor: input.id}, c.label || c.custom_id));
      if (c.description) field.append(el("div", {className: "description"}, c.description));
      field.append(input);
      fields.push(field);
    }
  }
  $("#modal-fields").replaceChildren(...fields);
  $("#modal").hidden = false;
  inputs[0]?.focus();
  $("#modal-form").onsubmit = async (event) => {
    event.preventDefault();
    const values = Object.fromEntries(inputs.map((i) => [i.dataset.customId, i.dataset.kind === "text" ? i.value : [i.value]]));
    $("#modal").hidden = true;
    await act("modal", {interaction, values});
  };
}
$("#modal-cancel").onclick = () => { $("#modal").hidden = true; };

// ------------------------------------------------------------------ composer: messages and slash commands
// A command's, option's or choice's name or description as this tab's Discord language shows
// it (the bot registers translations), else as registered.
const localized = (item, field) => item[`${field}_localizations`]?.[state.world.locale] || item[field];

function commandEntries() {
  // every runnable form: "/play", "/castle move", "/config group sub"
  const out = [];
  for (const cmd of state.world.commands) {
    const subs = (cmd.options || []).filter((o) => o.type === 1 || o.type === 2);
    if (!subs.length) { out.push({cmd, path: [], options: cmd.options || [], description: localized(cmd, "description")}); continue; }
    for (const s of subs) {
      if (s.type === 1) out.push({cmd, path: [s], subcommand: s.name, options: s.options || [], description: localized(s, "description")});
      else for (const t of s.options || []) out.push({cmd, path: [s, t], group: s.name, subcommand: t.name, options: t.options || [], description: localized(t, "description")});
    }
  }
  return out.map((e) => ({...e, label: `/${[e.cmd, ...e.path].map((c) => localized(c, "name")).join(" ")}`}));
}

const input = $("#message-input");
let suggestions = [];
let active = 0;

input.addEventListener("input", () => {
  const text = input.value;
  if (!text.startsWith("/") || channel(state.current).kind === "dm") { hideCommands(); return; }
  suggestions = suggest(text.slice(1).toLowerCase().replace(/\s+/g, " ").trimStart(), channel(state.current).game);
  active = 0;
  renderSuggestions();
});

// The commands everyone uses, in the order a newcomer needs them; others follow by name.
const FIRST_COMMANDS = ["play", "rules", "hand", "status", "move", "log", "stats", "games", "leave", "end",
  "pause", "resume", "replay"];

function suggest(typed, game) {
  // "/" alone: the general commands, then the game of this channel's own commands, then one
  // line per other game's commands; letters narrow it: "/atm" (or, where Atmosfear is played,
  // "/fl" for its "fly") lists that game's commands
  const rank = (e) => {
    const i = FIRST_COMMANDS.indexOf(e.cmd.name);
    return i < 0 ? FIRST_COMMANDS.length : i;
  };
  const entries = commandEntries();
  const general = entries.filter((e) => !e.path.length)
    .sort((a, b) => rank(a) - rank(b) || a.label.localeCompare(b.label));
  const grouped = entries.filter((e) => e.path.length);
  const matches = (e) => e.label.slice(1).startsWith(typed) || e.label.slice(1) === typed.trimEnd();
  const here = (e) => e.cmd.name === game && (typed === "" || e.path.map((c) => c.name).join(" ").startsWith(typed));
  const out = general.filter(matches);
  out.push(...grouped.filter((e) => here(e) || (typed !== "" && matches(e))));
  if (typed === "") {
    for (const name of [...new Set(grouped.map((e) => e.cmd.name))].filter((n) => n !== game).sort()) {
      const commands = grouped.filter((e) => e.cmd.name === name);
      out.push({label: `/${name} …`, more: name,
        description: `${localized(commands[0].cmd, "description")} (${commands.length} commands)`});
    }
  }
  return out;
}

function renderSuggestions() {
  const popup = $("#command-popup");
  if (!suggestions.length) { popup.hidden = true; return; }
  popup.replaceChildren(...suggestions.map((s, i) => {
    const row = el("div", {className: `suggestion${i === active ? " active" : ""}`},
      el("span", {className: "name"}, s.label), el("span", {className: "description"}, s.description || ""));
    row.onmousedown = (event) => { event.preventDefault(); pick(s); };
    return row;
  }));
  popup.hidden = false;
  popup.querySelector(".active").scrollIntoView({block: "nearest"});
}

function hideCommands() {
  suggestions = [];
  $("#command-popup").hidden = true;
}

input.addEventListener("keydown", (event) => {
  if (!suggestions.length) return;
  if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    active = (active + (event.key === "ArrowDown" ? 1 : -1) + suggestions.length) % suggestions.length;
    renderSuggestions();
    event.preventDefault();
  } else if (event.key === "Tab" || event.key === "Enter") {
    pick(suggestions[active]);
    event.preventDefault();
  } else if (event.key === "Escape") {
    hideCommands();
  }
});

function pick(entry) {
  if (!entry.more) { startCommand(entry); return; }
  input.value = `/${entry.more} `;  // a game's commands: list them
  input.dispatchEvent(new Event("input"));
  input.focus();
}

function startCommand(entry) {
  hideCommands();
  input.value = "";
  state.command = entry;
  $("#command-chip").textContent = entry.label;
  const fields = entry.options.map((o) => optionField(o, entry));
  $("#command-options").replaceChildren(...fields);
  $("#command-form").hidden = false;
  input.placeholder = entry.options.length ? "Fill in the options, then press Enter" : "Press Enter to send";
  (fields[0]?.querySelector("input, select") || input).focus();
}

function optionField(o, entry) {
  let control;
  if (o.choices?.length) {
    control = el("select", {}, el("option", {value: ""}, ""), ...o.choices.map((c) => el("option", {value: String(c.value)}, localized(c, "name"))));
  } else if (o.type === 5) {
    control = el("select", {}, el("option", {value: ""}, ""), el("option", {value: "true"}, "True"), el("option", {value: "false"}, "False"));
  } else if (o.type === 6 || o.type === 9) {
    control = el("select", {}, el("option", {value: ""}, ""), ...state.world.players.map((id) => el("option", {value: id}, userName(id))));
  } else {
    control = el("input", {type: o.type === 4 || o.type === 10 ? "number" : "text"});
  }
  control.dataset.option = o.name;
  control.dataset.type = o.type;
  control.setAttribute("aria-label", localized(o, "name"));
  control.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !$("#autocomplete-popup").querySelector(".active")) { event.preventDefault(); sendCommand(); }
    if (event.key === "Escape") closeCommand();
  });
  if (o.autocomplete) {
    let timer = null;
    const ask = () => { clearTimeout(timer); timer = setTimeout(() => autocomplete(entry, o, control), 120); };
    control.addEventListener("input", ask);
    control.addEventListener("focus", ask);
    control.addEventListener("blur", () => setTimeout(() => { $("#autocomplete-popup").hidden = true; }, 150));
  }
  return el("span", {className: "option"}, el("label", {className: o.required ? "required" : ""}, `${localized(o, "name")}:`), control);
}

function optionValues() {
  const values = {};
  for (const control of $("#command-options").querySelectorAll("[data-option]")) {
    const raw = control.value;
    if (raw === "") continue;
    const type = Number(control.dataset.type);
    values[control.dataset.option] = type === 4 ? parseInt(raw, 10) : type === 10 ? parseFloat(raw) : type === 5 ? raw === "true" : raw;
  }
  return values;
}

async function autocomplete(entry, option, control) {
  if (state.command !== entry) return;
  const options = optionValues();
  options[option.name] = control.value;
  let answer;
  try {
    answer = await api("autocomplete", {user: state.me, channel: state.current, name: entry.cmd.name,
      subcommand: entry.subcommand, group: entry.group, options, focused: option.name});
  } catch (error) {
    toast(error.message);
    return;
  }
  const popup = $("#autocomplete-popup");
  if (document.activeElement !== control) return;
  if (!answer.choices.length) {
    popup.replaceChildren(el("div", {className: "suggestion"}, el("span", {className: "description"}, "No options match")));
  } else {
    popup.replaceChildren(...answer.choices.map((c) => {
      const row = el("div", {className: "suggestion"}, el("span", {className: "name"}, c.name));
      row.onmousedown = (event) => {
        event.preventDefault();
        control.value = String(c.value);
        popup.hidden = true;
      };
      return row;
    }));
  }
  popup.hidden = false;
}

async function sendCommand() {
  const entry = state.command;
  const missing = entry.options.filter((o) => o.required && !(o.name in optionValues()));
  if (missing.length) { toast(`Fill in ${missing.map((o) => localized(o, "name")).join(", ")} first.`); return; }
  const body = {channel: state.current, name: entry.cmd.name, options: optionValues(),
    subcommand: entry.subcommand, group: entry.group};
  closeCommand();
  await act("slash", body);
}

function closeCommand() {
  state.command = null;
  $("#command-form").hidden = true;
  $("#autocomplete-popup").hidden = true;
  input.placeholder = "Message";
}

$("#message-form").onsubmit = async (event) => {
  event.preventDefault();
  if (state.command) { await sendCommand(); return; }
  const content = input.value.trim();
  if (!content) return;
  if (content.startsWith("/")) { toast("Pick a command from the list (type / to see them)."); return; }
  input.value = "";
  await act("say", {channel: state.current, content});
};

// ------------------------------------------------------------------ Discord markdown
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

function markdown(text) {
  const kept = [];
  const keep = (html) => `\u0000${kept.push(html) - 1}\u0000`;
  let out = String(text)
    .replace(/```(?:[a-z]*\n)?([\s\S]*?)```/g, (_, code) => keep(`<pre><code>${escapeHtml(code)}</code></pre>`))
    .replace(/`([^`]+)`/g, (_, code) => keep(`<code>${escapeHtml(code)}</code>`))
    .replace(/<t:(-?\d+)(?::([tTdDfFR]))?>/g, (_, t, style) => keep(timestamp(Number(t), style || "f")))
    .replace(/<@!?(\d+)>/g, (_, id) => keep(`<span class="mention">@${escapeHtml(userName(id))}</span>`))
    .replace(/<#(\d+)>/g, (_, id) => keep(`<a href="#" class="mention" data-channel="${id}">#${escapeHtml(channel(id)?.name || "unknown")}</a>`))
    .replace(/<a?:(\w+):\d+>/g, (_, name) => keep(`:${escapeHtml(name)}:`))
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, (_, label, url) => keep(link(url, escapeHtml(label))))
    .replace(/https?:\/\/[^\s<>)]+/g, (url) => keep(link(url, escapeHtml(url))));
  out = escapeHtml(out)
    .replace(/^&gt;&gt;&gt; ([\s\S]*)$/m, "<blockquote>$1</blockquote>")
    .replace(/^&gt; (.*)$/gm, "<blockquote>$1</blockquote>")
    .replace(/^### (.*)$/gm, "<h3>$1</h3>").replace(/^## (.*)$/gm, "<h2>$1</h2>").replace(/^# (.*)$/gm, "<h1>$1</h1>")
    .replace(/^-# (.*)$/gm, '<span class="subtext">$1</span>')
    .replace(/^[-*] (.*)$/gm, "• $1")
    .replace(/\*\*([\s\S]+?)\*\*/g, "<strong>$1</strong>")
    .replace(/__([\s\S]+?)__/g, "<u>$1</u>")
    .replace(/~~([\s\S]+?)~~/g, "<s>$1</s>")
    .replace(/\|\|([\s\S]+?)\|\|/g, '<span class="spoiler">$1</span>')
    .replace(/(^|[^\w*])\*(?!\s)([^*\n]+?)\*(?!\w)/g, "$1<em>$2</em>")
    .replace(/(^|[^\w])_(?!\s)([^_\n]+?)_(?!\w)/g, "$1<em>$2</em>")
    .replace(/(<\/(?:h[123]|blockquote)>)\n/g, "$1");
  return out.replace(/\u0000(\d+)\u0000/g, (_, i) => kept[Number(i)]);
}

function link(url, label) {
  const jump = url.match(/^https:\/\/discord\.com\/channels\/(?:@me|\d+)\/(\d+)(?:\/(\d+))?/);
  if (jump) {
    // like Discord: a bare message link shows as a pill naming its channel
    const where = escapeHtml(channel(jump[1])?.name || "unknown channel");
    const text = label === escapeHtml(url) ? `#${where}${jump[2] ? " › message" : ""}` : label;
    return `<a href="#" class="${label === escapeHtml(url) ? "mention" : ""}" data-channel="${jump[1]}" data-message="${jump[2] || ""}">${text}</a>`;
  }
  return `<a href="${escapeHtml(url)}" target="_blank" rel="noopener">${label}</a>`;
}

document.addEventListener("click", (event) => {
  const target = event.target.closest("[data-channel]");
  if (target) {
    event.preventDefault();
    if (channel(target.dataset.channel)) openChannel(target.dataset.channel, target.dataset.message);
    else toast("That channel is not in this sandbox.");
    return;
  }
  const spoiler = event.target.closest(".spoiler");
  if (spoiler) spoiler.classList.add("shown");
});

// ------------------------------------------------------------------ time
const sandboxNow = () => Date.now() / 1000 + state.clockOffset;

function timestamp(seconds, style) {
  return `<span class="timestamp" data-time="${seconds}" data-style="${style}">${formatTime(seconds, style)}</span>`;
}

function formatTime(seconds, style) {
  const date = new Date(seconds * 1000);
  if (style === "R") {
    const delta = Math.round(seconds - sandboxNow());
    const size = Math.abs(delta);
    const [n, unit] = size < 60 ? [size, "second"] : size < 3600 ? [Math.round(size / 60), "minute"]
      : size < 86400 ? [Math.round(size / 3600), "hour"] : [Math.round(size / 86400), "day"];
    const words = `${n} ${unit}${n === 1 ? "" : "s"}`;
    return delta >= 0 ? `in ${words}` : `${words} ago`;
  }
  if (style === "t") return date.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
  if (style === "T") return date.toLocaleTimeString();
  if (style === "d") return date.toLocaleDateString();
  if (style === "D") return date.toLocaleDateString([], {dateStyle: "long"});
  return date.toLocaleString([], {dateStyle: style === "F" ? "full" : "long", timeStyle: "short"});
}

function clockTime(iso) {
  return new Date(iso).toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
}

setInterval(() => {
  for (const span of document.querySelectorAll('.timestamp[data-style="R"]')) {
    span.textContent = formatTime(Number(span.dataset.time), "R");
  }
}, 1000);

// ------------------------------------------------------------------ small helpers
function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function avatar(id, name) {
  const colours = ["#5865f2", "#3ba55c", "#faa61a", "#ed4245", "#eb459e", "#747f8d"];
  const span = el("span", {className: "avatar"}, (name || "?").slice(0, 1).toUpperCase());
  span.style.background = id === state.world?.sandbox.bot_id ? "#1e1f22" : colours[Number(BigInt(id || 0) % 6n)];
  return span;
}

function toast(text) {
  const note = el("div", {className: "toast", role: "alert"}, text);
  $("#toasts").append(note);
  setTimeout(() => note.remove(), 6000);
}

connect();
