// A stand-in for Safari's Apple Pay JS (window.ApplePaySession), for browser tests only, injected with
// page.addInitScript before the page runs. It implements what Apple documents for version 3:
// canMakePayments, supportsVersion, begin, completeMerchantValidation, completePayment, abort, and
// the validatemerchant / paymentauthorized / cancel events, and plays Apple's sheet with a small
// dialog (Pay / Cancel). window.__applePayDoubleConfig: { canMakePayments, throwOnCreate, email }.
(function () {
  var config = Object.assign({ canMakePayments: true, throwOnCreate: false, email: 'wallet@example.com' }, window.__applePayDoubleConfig || {});
  var record = (window.__applePayDouble = { requests: [], merchantSessions: [], completed: [], canMakePaymentsCalls: 0 });

  function ApplePaySession(version, request) {
    if (version !== 3) throw new TypeError('version 3 expected');
    if (config.throwOnCreate) throw new DOMException('Apple Pay is not available for this request', 'InvalidAccessError');
    if (!request?.total || !/^-?\d+(\.\d+)?$/.test(request.total.amount) || !/^[A-Z]{3}$/.test(request.currencyCode) || !request.countryCode) {
      throw new TypeError('a payment request needs countryCode, currencyCode and total');
    }
    record.requests.push(JSON.parse(JSON.stringify(request)));
    this.request = request;
    this.onvalidatemerchant = null;
    this.onpaymentauthorized = null;
    this.oncancel = null;
  }
  ApplePaySession.STATUS_SUCCESS = 0;
  ApplePaySession.STATUS_FAILURE = 1;
  ApplePaySession.supportsVersion = function (version) {
    return version >= 1 && version <= 3;
  };
  ApplePaySession.canMakePayments = function () {
    record.canMakePaymentsCalls++;
    return config.canMakePayments;
  };

  ApplePaySession.prototype.begin = function () {
    var self = this;
    setTimeout(function () {
      if (self.onvalidatemerchant) self.onvalidatemerchant({ validationURL: 'https://apple-pay-gateway.apple.com/paymentservices/startSession' });
    }, 0);
  };
  ApplePaySession.prototype.completeMerchantValidation = function (merchantSession) {
    record.merchantSessions.push(merchantSession);
    var self = this;
    var sheet = document.createElement('div');
    sheet.setAttribute('role', 'dialog');
    sheet.setAttribute('aria-label', 'Apple Pay payment sheet');
    sheet.style.cssText = 'position:fixed;inset:auto 0 0 0;background:#fff;border-top:1px solid #ccc;padding:16px;z-index:99999';
    var total = document.createElement('p');
    total.textContent = `${self.request.total.label} ${self.request.currencyCode} ${self.request.total.amount}`;
    var pay = document.createElement('button');
    pay.textContent = 'Pay with Touch ID';
    var cancel = document.createElement('button');
    cancel.textContent = 'Cancel';
    sheet.append(total, pay, cancel);
    document.body.appendChild(sheet);
    self._sheet = sheet;
    pay.onclick = function () {
      pay.disabled = true;
      if (self.onpaymentauthorized)
        self.onpaymentauthorized({
          payment: {
            token: { paymentData: { version: 'EC_v1', data: 'dGVzdA==' }, paymentMethod: { network: 'Visa', type: 'debit' } },
            shippingContact: { emailAddress: config.email },
          },
        });
    };
    cancel.onclick = function () {
      sheet.remove();
      if (self.oncancel) self.oncancel({});
    };
  };
  ApplePaySession.prototype.completePayment = function (status) {
    record.completed.push(status);
    if (this._sheet) this._sheet.remove();
  };
  ApplePaySession.prototype.abort = function () {
    record.completed.push('aborted');
    if (this._sheet) this._sheet.remove();
  };
  window.ApplePaySession = ApplePaySession;
})();
