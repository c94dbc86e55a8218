// A stand-in for ЮKassa's payout widget (https://yookassa.ru/payouts-data/3.1.0/widget.js, ADR 050), for the fake
// ЮKassa and the offline sandbox: the same global `PayoutsData`, the same constructor options
// ({type: 'payout', account_id, success_callback, error_callback}), `render(containerId)` answering a promise, and
// `clearListeners()`. The card number stays in this script: the fake's version sends it to the fake ЮKassa for a
// token (as the real widget sends it to ЮKassa); the sandbox's makes a token in the browser. Either way the page
// and our server get only {payout_token, first6, last4, card_type}.

/** The script; `tokenUrl` is the fake's tokenising address, null for the sandbox (a token made in the browser). */
export function payoutWidgetScript(tokenUrl: string | null): string {
  return `(function () {
  'use strict';
  var TOKEN_URL = ${JSON.stringify(tokenUrl)};
  function luhn(d) {
    var sum = 0;
    for (var i = 0; i < d.length; i++) {
      var n = d.charCodeAt(d.length - 1 - i) - 48;
      if (i % 2 === 1) { n *= 2; if (n > 9) n -= 9; }
      sum += n;
    }
    return sum % 10 === 0;
  }
  function cardType(d) {
    if (/^220[0-4]/.test(d)) return 'MIR';
    if (d[0] === '4') return 'Visa';
    if (/^(5[1-5]|2[2-7])/.test(d)) return 'MasterCard';
    return 'Unknown';
  }
  // A UUID's shape, as the fake ЮKassa's tokens: its groups hold at most 12 digits in a row, so the contract's
  // card-number check (a Luhn-valid run of 13–19) can never refuse it. 32 hex digits in one run could (1 in 580).
  function token() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    var hex = Array.prototype.map.call(bytes, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
    return 'pt-' + [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
  }
  function PayoutsData(options) {
    if (!options || options.type !== 'payout' || !options.account_id) throw new Error('PayoutsData: type "payout" and account_id are required');
    this.options = options;
  }
  PayoutsData.prototype.render = function (containerId) {
    var self = this;
    var root = document.getElementById(containerId);
    if (!root) return Promise.reject(new Error('PayoutsData: no element #' + containerId));
    root.innerHTML = '';
    var box = document.createElement('div');
    box.className = 'payouts-widget';
    box.setAttribute('data-widget', TOKEN_URL ? 'yookassa-fake' : 'sandbox');
    var label = document.createElement('label');
    label.textContent = 'Номер карты';
    var input = document.createElement('input');
    input.name = 'payouts-card-number';
    input.inputMode = 'numeric';
    input.autocomplete = 'cc-number';
    input.placeholder = '0000 0000 0000 0000';
    input.className = 'input';
    label.appendChild(input);
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'btn btn--secondary';
    button.textContent = 'Сохранить карту';
    var note = document.createElement('p');
    note.className = 'form-error';
    note.setAttribute('role', 'alert');
    var say = function (text) { note.textContent = text; note.hidden = !text; };
    say('');
    button.onclick = function () {
      var digits = input.value.replace(/\\D/g, '');
      say('');
      if (digits.length < 13 || digits.length > 19 || !luhn(digits)) { say('Проверьте номер карты'); return; }
      var done = function (data) { input.value = ''; self.options.success_callback && self.options.success_callback(data); };
      if (!TOKEN_URL) return done({ payout_token: token(), first6: digits.slice(0, 6), last4: digits.slice(-4), card_type: cardType(digits) });
      button.disabled = true;
      fetch(TOKEN_URL, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ account_id: self.options.account_id, card_number: digits }) })
        .then(function (res) { return res.json().then(function (body) { if (!res.ok) throw body; return body; }); })
        .then(done, function (error) { self.options.error_callback && self.options.error_callback(error); say('Не удалось сохранить карту'); })
        .then(function () { button.disabled = false; });
    };
    box.appendChild(label);
    box.appendChild(button);
    box.appendChild(note);
    root.appendChild(box);
    return Promise.resolve();
  };
  PayoutsData.prototype.clearListeners = function () { this.options = { type: 'payout', account_id: this.options.account_id }; };
  window.PayoutsData = PayoutsData;
})();
`;
}
