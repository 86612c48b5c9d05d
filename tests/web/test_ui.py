"""The web UI in a real Chromium against the real app over the bundled index."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import UI, Served, open_ui

pytestmark = pytest.mark.slow

# The graph status line once a topology is laid out ("2,472 provisions, 3,412 links ...").
GRAPH_READY = ("() => /provisions, .* links/"
               ".test(document.querySelector('#graph-status').textContent)")
QUESTION = "What is the penalty for not registering a real estate project?"


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def ask(ui: UI, question: str = QUESTION) -> Any:
    """Type a question, press Enter, wait for the cited answer; the answer turn."""
    page = ui.page
    page.goto(ui.url + "/")
    page.get_by_label("Your question").fill(question)
    page.get_by_label("Your question").press("Enter")
    turn = page.locator("article.turn").last
    turn.locator(".chip").first.wait_for()
    return turn


def test_ask_streams_a_cited_answer(ui: UI) -> None:
    page = ui.page
    events: list[str] = []
    page.on("response", lambda r: events.append(r.url) if "/query/stream" in r.url else None)
    turn = ask(ui)
    text = turn.locator(".answer-text").inner_text()
    assert "Section 59" in text
    assert "not legal advice" in turn.inner_text()
    assert events, "the answer did not come over /api/v1/query/stream"
    # Screen readers hear one summary, not every streamed word.
    assert re.match(r"Answer ready, \w+ confidence, \d+ sources\.",
                    page.locator("#ask-status").text_content())
    assert page.locator("#turns[aria-live]").count() == 0
    badge = turn.locator(".badge").first.inner_text()
    assert badge.endswith("confidence")
    chips = turn.locator(".chip")
    assert chips.count() >= 2
    assert "Section 59(1)" in chips.first.inner_text()
    # An in-text [1] marker opens the same provision as the first chip.
    assert turn.locator(".cite-ref").count() >= 1
    turn.evaluate("el => el.scrollIntoView({block: 'start'})")
    ui.shot("ask-answer")
    turn.get_by_role("button", name=re.compile("Copy answer")).click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith(f"Q: {QUESTION}")
    assert "Sources:\n[1] Section 59(1)" in copied
    # Follow-up suggestions are buttons that ask the next question.
    follow = turn.locator("button.suggestion")
    assert follow.count() >= 1
    question = follow.first.inner_text()
    follow.first.click()
    second = page.locator("article.turn").nth(1)
    assert second.locator(".question").inner_text() == question
    second.locator(".turn-meta .badge").filter(has_not_text="Answering").wait_for()
    assert second.locator(".answer-text").inner_text().strip()


def test_citation_opens_the_provision_with_the_quote_highlighted(ui: UI) -> None:
    page = ui.page
    turn = ask(ui)
    chip = turn.locator(".chip").first
    chip.click()
    panel = page.get_by_role("complementary")
    panel.locator("#quote-mark").wait_for()
    provision = page.request.get(
        ui.url + "/api/v1/provisions/" + chip.get_attribute("data-id").replace("#", "%23")).json()
    citation = page.request.post(ui.url + "/api/v1/query", data={"question": QUESTION}).json()[
        "citations"][0]
    marked = panel.locator("#quote-mark").text_content()
    expected = provision["text"][citation["start"] - provision["start"]:
                                 citation["end"] - provision["start"]]
    assert marked == expected
    assert squash(marked) == squash(citation["quote"])
    # The whole provision, character for character as stored, not only the quote.
    assert panel.locator("#provision-text").text_content() == provision["text"]
    crumbs = panel.get_by_role("navigation", name="Provision path").inner_text()
    assert "Real Estate" in crumbs and "Section 59" in crumbs
    assert "in force" in panel.inner_text() or "commencement" in panel.inner_text()
    assert chip.get_attribute("aria-pressed") == "true"
    ui.shot("citation-panel")


def test_walk_to_a_neighbour_and_to_the_next_provision(ui: UI) -> None:
    page = ui.page
    turn = ask(ui)
    turn.locator(".chip").first.click()
    panel = page.get_by_role("complementary")
    title = panel.locator("#panel-title")
    title.wait_for()
    first = title.inner_text()
    neighbour = panel.locator("#neighbours button.neighbour").first
    target = neighbour.get_attribute("data-id")
    neighbour.click()
    page.wait_for_function(
        "t => document.querySelector('#panel-title')?.textContent !== t", arg=first)
    opened = page.request.get(ui.url + "/api/v1/provisions/" + target.replace("#", "%23")).json()
    assert opened["label"] in title.inner_text()
    second = title.inner_text()
    panel.get_by_role("button", name=re.compile("^Next:")).click()
    page.wait_for_function(
        "t => document.querySelector('#panel-title')?.textContent !== t", arg=second)
    assert opened["next"]["label"] in title.inner_text()
    ui.shot("neighbour")
    # "Show in the graph" opens the explorer with this provision selected.
    here = opened["next"]["id"]
    panel.get_by_role("link", name="Show in the graph").click()
    page.wait_for_function(
        "id => { const r = document.getElementById('graph-canvas')._cyreg;"
        " return r && r.cy && r.cy.nodes(':selected').map(n => n.id()).includes(id); }",
        arg=here)


def test_filters_and_research_mode_go_to_the_api(ui: UI) -> None:
    page = ui.page
    page.goto(ui.url + "/")
    docs = page.request.get(ui.url + "/api/v1/documents").json()["documents"]
    rera = next(d for d in docs if d["id"].startswith("the-real-estate"))
    page.get_by_text("Filters").click()
    page.get_by_role("checkbox", name=rera["title"]).check()
    page.get_by_label("Law as of").fill("2020-01-01")
    assert "1 document, as of 2020-01-01" in page.locator("#filter-summary").inner_text()
    page.get_by_label("Research mode").check()
    with page.expect_request("**/api/v1/query/stream") as req:
        page.get_by_label("Your question").fill("When must a promoter refund the allottee?")
        page.get_by_role("button", name="Ask", exact=True).click()
    body = req.value.post_data_json
    assert body["documents"] == [rera["id"]]
    assert body["as_of"] == "2020-01-01"
    assert body["mode"] == "research"
    turn = page.locator("article.turn").last
    turn.locator(".turn-meta .badge").filter(has_not_text="Answering").wait_for()
    if turn.locator(".chip").count():
        assert all(c.startswith(rera["id"] + "#")
                   for c in turn.locator(".chip").evaluate_all("cs => cs.map(c => c.dataset.id)"))
    ui.shot("research-filters")


def test_graph_explorer_click_a_node_opens_it(ui: UI) -> None:
    page = ui.page
    page.goto(ui.url + "/#/graph")
    page.wait_for_function(GRAPH_READY)
    legend = page.locator("#graph-legend").inner_text()
    for edge in ("REFERENCES", "DERIVED_FROM", "DEFINES", "HAS_PART"):
        assert edge in legend
    # Click a real node where Cytoscape drew it.
    point = page.evaluate("""() => {
        const cy = document.getElementById('graph-canvas')._cyreg.cy;
        const node = cy.nodes("[kind = 'provision']").filter(n => n.degree() > 2).first();
        cy.zoom(2.5); cy.center(node);
        const p = node.renderedPosition();
        const box = cy.container().getBoundingClientRect();
        return {id: node.id(), x: box.left + p.x, y: box.top + p.y,
                count: cy.nodes().length};
    }""")
    assert point["count"] > 100
    page.mouse.click(point["x"], point["y"])
    panel = page.get_by_role("complementary")
    panel.locator("#provision-text").wait_for()
    chosen = page.evaluate(
        "document.getElementById('graph-canvas')._cyreg.cy.nodes(':selected').map(n => n.id())")
    assert chosen == [point["id"]]
    provision = page.request.get(
        ui.url + "/api/v1/provisions/" + point["id"].replace("#", "%23")).json()
    assert provision["label"] in panel.locator("#panel-title").inner_text()
    tools = page.get_by_role("toolbar", name="Selected provision")
    before = page.evaluate("document.getElementById('graph-canvas')._cyreg.cy.nodes().length")
    tools.get_by_role("button", name="Expand neighbours").click()
    page.wait_for_function("() => /added around/.test("
                           "document.querySelector('#graph-status').textContent)")
    after = page.evaluate("document.getElementById('graph-canvas')._cyreg.cy.nodes().length")
    assert after >= before
    ui.shot("graph")


def test_graph_filters_by_document_and_edge_type(ui: UI) -> None:
    page = ui.page
    page.goto(ui.url + "/#/graph")
    status = page.locator("#graph-status")
    page.wait_for_function(GRAPH_READY)
    ui.shot("graph-overview")
    docs = page.request.get(ui.url + "/api/v1/documents").json()["documents"]
    rera = next(d for d in docs if d["id"].startswith("the-real-estate"))
    page.get_by_label("Document", exact=True).select_option(rera["id"])
    page.get_by_label("HAS_PART").uncheck()
    page.wait_for_function(GRAPH_READY)
    kinds = page.evaluate("""() => {
        const cy = document.getElementById('graph-canvas')._cyreg.cy;
        return {types: [...new Set(cy.edges().map(e => e.data('type')))],
                docs: [...new Set(cy.nodes().map(n => n.data('doc')))]};
    }""")
    assert "HAS_PART" not in kinds["types"]
    assert rera["id"] in kinds["docs"]
    assert "links" in status.inner_text()
    ui.shot("graph-document")


def test_upload_lists_the_document_and_delete_removes_it(ui: UI, small_act: Path) -> None:
    page = ui.page
    page.goto(ui.url + "/#/library")
    page.locator("table").wait_for()
    page.get_by_label(re.compile("Add a document")).set_input_files(str(small_act))
    page.get_by_role("button", name="Upload").click()
    row = page.locator("tr", has_text="Model Tenancy Act")
    row.wait_for()
    assert page.locator("#upload-bar").get_attribute("value") == "100"
    assert re.search(r"\b[1-9]\d*\b", row.locator("td.num").first.inner_text())
    ui.shot("library-upload")
    page.once("dialog", lambda d: d.accept())
    row.get_by_role("button", name=re.compile("^Delete")).click()
    row.wait_for(state="detached")
    ids = [d["id"] for d in page.request.get(ui.url + "/api/v1/documents").json()["documents"]]
    assert "model-tenancy-act-2099" not in ids


def test_keyboard_only(ui: UI) -> None:
    page = ui.page
    page.goto(ui.url + "/")
    page.keyboard.press("Tab")
    skip = page.evaluate("document.activeElement.textContent")
    assert skip == "Skip to content"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "focus is not visible"
    page.locator("#question").focus()
    page.keyboard.type(QUESTION)
    page.keyboard.press("Enter")
    page.locator(".chip").first.wait_for()
    page.locator(".turn .cite-ref").first.focus()
    for _ in range(30):  # Tab to the first source chip
        if page.evaluate("document.activeElement.classList.contains('chip')"):
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.citation") == "1"
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    ui.shot("keyboard-focus")
    page.keyboard.press("Enter")
    page.locator("#quote-mark").wait_for()
    assert page.evaluate("document.activeElement.id") == "panel-body"
    # From the panel, Tab reaches the provision's links, Enter follows one.
    for _ in range(15):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.dataset.id"):
            break
    target = page.evaluate("document.activeElement.dataset.id")
    assert target
    page.keyboard.press("Enter")
    page.wait_for_function(
        "id => document.getElementById('panel-body').contains(document.activeElement)"
        " && document.querySelector('#panel-title').textContent.length > 0", arg=target)
    page.keyboard.press("Escape")
    assert page.get_by_role("complementary").is_hidden()
    assert page.evaluate("document.activeElement.dataset.citation") == "1"


def test_dark_mode_follows_the_system_and_the_toggle(
        browser: Any, app_server: Served, tmp_path: Path) -> None:
    context, ui = open_ui(browser, app_server, tmp_path, color_scheme="dark")
    try:
        page = ui.page
        ask(ui).locator(".chip").first.click()
        page.locator("#quote-mark").wait_for()
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert _luminance(background) < 0.2
        toggle = page.get_by_role("button", name="Dark theme")
        assert toggle.get_attribute("aria-pressed") == "true"
        ui.shot("dark-mode")
        page.get_by_role("button", name="Close provision").click()
        page.get_by_role("link", name="Graph").click()
        page.wait_for_function(GRAPH_READY)
        ui.shot("dark-graph")
        toggle.click()
        assert toggle.get_attribute("aria-pressed") == "false"
        assert _luminance(page.evaluate("getComputedStyle(document.body).backgroundColor")) > 0.8
        assert ui.outside == []
    finally:
        context.close()


def test_phone_width(browser: Any, app_server: Served, tmp_path: Path) -> None:
    context, ui = open_ui(browser, app_server, tmp_path, viewport={"width": 390, "height": 844})
    try:
        page = ui.page
        turn = ask(ui)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        ui.shot("phone-answer")
        turn.locator(".chip").first.click()
        page.locator("#quote-mark").wait_for()
        width = page.evaluate("document.getElementById('panel').getBoundingClientRect().width")
        assert width == pytest.approx(390, abs=1)
        ui.shot("phone-panel")
        assert ui.outside == []
    finally:
        context.close()


def _luminance(css: str) -> float:
    r, g, b = (int(x) / 255 for x in re.findall(r"\d+", css)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_api_key_is_asked_once_and_sent_as_bearer(
        browser: Any, chromium_path: Path, tmp_path: Path) -> None:
    from civicsetu.api.servicedb import ServiceDB
    from civicsetu.config import Settings
    from tests.web.conftest import start_server

    home = tmp_path / "keyed-home"
    db = ServiceDB(home / "service.db")
    _, secret = db.create_key("ui-test")
    db.close()
    url, stop = start_server(Settings(home=home))
    served = Served(url, home, None)
    context, ui = open_ui(browser, served, tmp_path)
    sent: list[tuple[str, str | None]] = []
    try:
        page = ui.page
        page.on("request", lambda r: sent.append((r.url, r.headers.get("authorization")))
                if "/api/" in r.url else None)
        page.goto(url + "/#/library")
        dialog = page.get_by_role("dialog", name="API key needed")
        dialog.wait_for()
        dialog.get_by_label("API key").fill("cs_wrong_key")
        dialog.get_by_role("button", name="Use key").click()
        page.wait_for_function("() => /not accepted/.test("
                               "document.getElementById('key-message').textContent)")
        ui.shot("api-key")
        dialog.get_by_label("API key").fill(secret)
        dialog.get_by_role("button", name="Use key").click()
        page.get_by_text("The library is empty").wait_for()
        assert page.evaluate("sessionStorage.getItem('civicsetu.apiKey')") == secret
        page.reload()
        page.get_by_text("The library is empty").wait_for()
        assert dialog.is_hidden()
        assert all(secret not in u for u, _ in sent)
        assert sent[-1][1] == f"Bearer {secret}"
        assert ui.outside == []
    finally:
        context.close()
        stop()
