"""User-interface strings in English and Japanese.

Card names and texts come from the card set; everything else the player
reads is here, keyed by a stable id. :func:`tr` formats with named fields
and falls back to English (never to a key) if a translation is missing.
"""

from __future__ import annotations

from typing import Any

LANGS = ("en", "ja")

STRINGS: dict[str, tuple[str, str]] = {
    # lobby
    "title": ("Fairtable", "フェアテーブル"),
    "subtitle": ("Rider card game - fair play without a referee", "ライダーカードゲーム - 審判なしの公正な対戦"),
    "play_now": ("Play now", "すぐに遊ぶ"),
    "play_bot": ("Play against a bot", "ボットと対戦"),
    "play_bot_hint": ("A local table on this computer. No set-up needed.", "このコンピューター上のローカル卓。準備は不要です。"),
    "your_name": ("Your name", "プレイヤー名"),
    "deck": ("Your deck", "デッキ"),
    "bot_deck": ("Bot's deck", "ボットのデッキ"),
    "opponent": ("Opponent", "対戦相手"),
    "bot_greedy": ("Greedy bot", "強欲ボット"),
    "bot_random": ("Random bot", "ランダムボット"),
    "friends": ("Play with friends", "友達と遊ぶ"),
    "host": ("Host a table", "卓を立てる"),
    "join": ("Join", "参加"),
    "join_code": ("Invite code", "招待コード"),
    "lan_tables": ("Tables on this network", "このネットワーク上の卓"),
    "lan_none": ("No tables found.", "卓が見つかりません。"),
    "net_pending": (
        ("Networked play arrives with the sessions work: hosting, joining and the LAN list are not connected yet. "
         "Play against a bot meanwhile."),
        ("ネットワーク対戦はセッション機能の実装とともに提供されます。卓の作成・参加・LAN一覧はまだ接続されていません。"
         "それまではボットと対戦してください。"),
    ),
    "code_ok": ("Invite is valid: host {fingerprint}. Joining needs the sessions work; not connected.",
                "招待コードは有効です（ホスト {fingerprint}）。参加にはセッション機能が必要です。未接続です。"),
    "code_bad": ("That invite code is not valid: {error}. Check it with the host and type it again.",
                 "招待コードが正しくありません：{error}。ホストに確認して入力し直してください。"),
    "code_empty": ("Type or paste an invite code first.", "先に招待コードを入力してください。"),
    "fingerprint": ("Your fingerprint", "あなたの指紋"),
    "fingerprint_none": ("Identity not available", "ID は利用できません"),
    "language": ("Language", "言語"),
    "no_decks": ("No decks found in assets/rider/decks: reinstall the game.",
                 "assets/rider/decks にデッキがありません。ゲームを再インストールしてください。"),
    "engine_missing": ("The Rider rules engine is not available in this build: {error}",
                       "このビルドにはライダーのルールエンジンがありません：{error}"),
    "quit": ("Quit", "終了"),
    # table
    "you": ("You", "あなた"),
    "seat": ("Seat {n}", "席{n}"),
    "turn": ("Turn {n}", "ターン {n}"),
    "deck_pile": ("Deck", "デッキ"),
    "discard_pile": ("Discard", "捨て山"),
    "lost_pile": ("Lost", "ロスト"),
    "hand": ("Hand", "手札"),
    "power": ("Power {n}", "パワー {n}"),
    "facedown": ("Face down", "裏向き"),
    "empty_column": ("No Lv.1", "Lv.1なし"),
    "waiting_you": ("Your move: {what}", "あなたの番：{what}"),
    "waiting_for": ("Waiting for {who}: {what}", "{who}を待っています：{what}"),
    "waiting_system": ("Table: {what}", "卓：{what}"),
    "pass": ("Pass", "パス"),
    "end_attacks": ("End turn", "ターン終了"),
    "cancel": ("Cancel", "キャンセル"),
    "confirm": ("Confirm", "確定"),
    "menu": ("Lobby", "ロビー"),
    "log": ("Game log", "ゲームログ"),
    "peers": ("Players", "プレイヤー"),
    "peer_you_local": ("you · local table (this computer)", "あなた・ローカル卓（このコンピューター）"),
    "peer_you_turn": ("you · your move", "あなた・あなたの番"),
    "peer_bot_thinking": ("bot · thinking…", "ボット・思考中…"),
    "peer_bot_local": ("bot · local table (this computer)", "ボット・ローカル卓（このコンピューター）"),
    "peer_connected": ("connected", "接続中"),
    "peer_waiting": ("waiting for this player", "このプレイヤーを待っています"),
    "peer_stalling": ("stalling: no answer before the deadline", "応答遅延：期限内に応答がありません"),
    "peer_desynced": ("desynced: state hashes differ; play stopped", "不一致：状態ハッシュが異なります。対局を停止しました"),
    "peer_cheat": ("cheat detected: a proof from this seat failed", "不正検出：この席の証明が失敗しました"),
    "verified_local": ("local", "ローカル"),
    "choose": ("Choose", "選んでください"),
    "setup_button": ("Set up columns", "列を準備"),
    "setup_title": ("Choose your face-down Lv.1 cards for columns A / B / C", "列A / B / C に裏向きで置く Lv.1 を選んでください"),
    "mark_button": ("Pick a Lv.1 to flip", "表にする Lv.1 を選ぶ"),
    "rps_button": ("Rock-paper-scissors", "ジャンケン"),
    "choose_level": ("Place it as which level?", "どのレベルとして置きますか？"),
    "choose_discard": ("Choose the card to discard", "捨てるカードを選んでください"),
    "choose_action": ("Choose what to do", "行動を選んでください"),
    "choose_target": ("Choose the effect's target", "効果の対象を選んでください"),
    "attack_preview": ("Attack preview", "攻撃の予測"),
    "attack_vs": ("Your column {col}: {atk} power  vs  column {tgt}: {dfn} power",
                  "自分の列{col}：パワー{atk}  対  列{tgt}：パワー{dfn}"),
    "would_destroy": ("Would destroy: {cards}", "破壊されるカード：{cards}"),
    "would_destroy_none": ("Would destroy nothing.", "破壊されるカードはありません。"),
    "attacker_keeps": ("Your column keeps only its Lv.1 (and Lv.0).", "攻撃した列は Lv.1（と Lv.0）だけが残ります。"),
    "confirm_q": ("This cannot be undone: the move is recorded in the signed log.", "この操作は取り消せません（署名付きログに記録されます）。"),
    "hint_select": ("Click a card in your hand, then a highlighted column. Drag works too.",
                    "手札のカードをクリックし、光っている列をクリックします。ドラッグでも操作できます。"),
    "hint_attack": ("Click one of your glowing columns to attack, or End turn.", "光っている自分の列をクリックして攻撃するか、ターンを終了します。"),
    "hint_target": ("Click the opposing column to attack.", "攻撃する相手の列をクリックしてください。"),
    "hint_card": ("Now click a highlighted column, or another card.", "光っている列をクリックするか、別のカードを選んでください。"),
    "pile_title": ("{pile} of {who} ({n})", "{who}の{pile}（{n}枚）"),
    "pile_empty": ("Empty.", "空です。"),
    "close": ("Close", "閉じる"),
    "shortcuts": ("Keys: 1-9 hand card, A/B/C column, P pass, E end turn, Enter confirm, Esc cancel, L language",
                  "キー：1-9 手札、A/B/C 列、P パス、E ターン終了、Enter 確定、Esc 取消、L 言語"),
    # pending prompts
    "what_setup": ("place three Lv.1 cards face down", "Lv.1を3枚裏向きに置く"),
    "what_main": ("level up, renew, open a column or pass", "レベルアップ・列の新生・列を開く・パス"),
    "what_attack": ("attack or end the turn", "攻撃またはターン終了"),
    "what_discard": ("discard a card", "カードを捨てる"),
    "what_choose": ("choose", "選択"),
    "what_sealed": ("sealed choice: {purpose}", "秘密の選択：{purpose}"),
    "what_chance": ("dice for {purpose}", "{purpose}のダイス"),
    "what_hidden": ("{op} of {zone}", "{zone}の{op}"),
    "sealed_flip": ("Choose the face-down Lv.1 to flip for the battle-mark contest", "バトルマーク勝負で表にする Lv.1 を選んでください"),
    "sealed_rps": ("Tie! Choose rock, paper or scissors", "あいこ！グー・チョキ・パーを選んでください"),
    "rps_rock": ("Rock", "グー"),
    "rps_paper": ("Paper", "パー"),
    "rps_scissors": ("Scissors", "チョキ"),
    # end
    "game_over": ("Game over", "ゲーム終了"),
    "winner_you": ("You won!", "あなたの勝ち！"),
    "winner_other": ("{who} won.", "{who}の勝ち。"),
    "draw": ("Draw.", "引き分け。"),
    "reason": ("Reason: {reason}", "理由：{reason}"),
    "audit_ok": ("Audit: passed. Every move replays to the same final state ({hash}).",
                 "監査：合格。全ての手を再生すると同じ最終状態になります（{hash}）。"),
    "audit_bad": ("Audit FAILED: {error}", "監査失敗：{error}"),
    "audit_local": ("Local table: dice and shuffles came from this computer's seeded generator, not a joint protocol.",
                    "ローカル卓：ダイスとシャッフルはこのコンピューターの乱数によるもので、共同プロトコルではありません。"),
    "save_transcript": ("Save transcript", "記録を保存"),
    "saved_to": ("Saved to {path}", "保存先：{path}"),
    "save_failed": ("Could not save: {error}. Check the folder is writable and try again.",
                    "保存できませんでした：{error}。フォルダーに書き込めるか確認して再試行してください。"),
    "rematch": ("Play again", "もう一度"),
    "back_lobby": ("Back to lobby", "ロビーに戻る"),
    "moves": ("{n} moves", "{n}手"),
}


def tr(lang: str, key: str, **fields: Any) -> str:
    """The string ``key`` in ``lang`` with ``fields`` filled in."""
    en, ja = STRINGS.get(key, (key, key))
    text = ja if lang == "ja" and ja else en
    return text.format(**fields) if fields else text
