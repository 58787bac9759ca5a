// A stand-in for Google's pay.js, for browser tests only. It implements the client the way Google
// documents it (google.payments.api.PaymentsClient: isReadyToPay, createButton, loadPaymentData,
// prefetchPaymentData) and plays the payment sheet with a small dialog. The token it returns is
// what Google hands back for the requested gateway: for `braintree`, the Braintree gateway's
// androidPayCards payload (with a sandbox fake nonce); for `example`, a test-gateway token.
(function () {
  var config = Object.assign(
    { ready: true, nonce: 'fake-android-pay-visa-nonce', network: 'VISA', last4: '1111', email: 'wallet@example.com' },
    window.__payJsDoubleConfig || {},
  );
  var record = (window.__payJsDouble = { requests: [], prefetched: [], readyChecks: [], buttons: [] });

  function fail(statusCode, message) {
    var error = new Error(message);
    error.statusCode = statusCode;
    return error;
  }

  function checkRequest(request) {
    if (request?.apiVersion !== 2) throw fail('DEVELOPER_ERROR', 'apiVersion must be 2');
    var method = (request.allowedPaymentMethods || [])[0];
    if (method?.type !== 'CARD') throw fail('DEVELOPER_ERROR', 'a CARD payment method is required');
    var spec = method.tokenizationSpecification;
    if (spec?.type !== 'PAYMENT_GATEWAY' || !spec.parameters || !spec.parameters.gateway) {
      throw fail('DEVELOPER_ERROR', 'tokenizationSpecification must name a PAYMENT_GATEWAY');
    }
    var info = request.transactionInfo || {};
    if (!/^\d+(\.\d+)?$/.test(String(info.totalPrice)) || !/^[A-Z]{3}$/.test(String(info.currencyCode))) {
      throw fail('DEVELOPER_ERROR', 'transactionInfo needs totalPrice and currencyCode');
    }
    return spec.parameters;
  }

  function tokenFor(parameters) {
    if (parameters.gateway === 'braintree') {
      return JSON.stringify({
        androidPayCards: [
          {
            type: 'AndroidPayCard',
            nonce: config.nonce,
            description: 'Android Pay',
            consumed: false,
            details: { cardType: 'Visa', lastTwo: config.last4.slice(-2), lastFour: config.last4, isNetworkTokenized: false, bin: '411111' },
            binData: {},
          },
        ],
      });
    }
    return JSON.stringify({
      signature: 'MEUCIQC-test-double-signature',
      intermediateSigningKey: { signedKey: '{"keyValue":"test","keyExpiration":"2999999999000"}', signatures: ['MEYCIQ-test'] },
      protocolVersion: 'ECv2',
      signedMessage: '{"encryptedMessage":"dGVzdA==","ephemeralPublicKey":"dGVzdA==","tag":"dGVzdA=="}',
    });
  }

  function showSheet(request) {
    return new Promise(function (resolve, reject) {
      var sheet = document.createElement('div');
      sheet.setAttribute('role', 'dialog');
      sheet.setAttribute('aria-label', 'Google Pay payment sheet');
      sheet.style.cssText = 'position:fixed;inset:auto 0 0 0;background:#fff;border-top:1px solid #ccc;padding:16px;z-index:99999';
      var total = document.createElement('p');
      total.textContent = `Pay ${request.transactionInfo.currencyCode} ${request.transactionInfo.totalPrice} with ${config.network} •••• ${config.last4}`;
      var go = document.createElement('button');
      go.type = 'button';
      go.textContent = 'Continue';
      var cancel = document.createElement('button');
      cancel.type = 'button';
      cancel.textContent = 'Cancel';
      sheet.append(total, go, cancel);
      document.body.appendChild(sheet);
      go.onclick = function () {
        sheet.remove();
        resolve();
      };
      cancel.onclick = function () {
        sheet.remove();
        reject(fail('CANCELED', 'User closed the Payment Request UI.'));
      };
    });
  }

  function PaymentsClient(options) {
    if (!options || (options.environment !== 'TEST' && options.environment !== 'PRODUCTION')) {
      throw fail('DEVELOPER_ERROR', 'environment must be TEST or PRODUCTION');
    }
    record.environment = options.environment;
  }
  PaymentsClient.prototype.isReadyToPay = function (request) {
    record.readyChecks.push(request);
    return Promise.resolve({ result: Boolean(config.ready) });
  };
  PaymentsClient.prototype.createButton = function (options) {
    record.buttons.push({ buttonType: options.buttonType, buttonLocale: options.buttonLocale });
    var wrapper = document.createElement('div');
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'gpay-button';
    button.setAttribute('aria-label', 'Pay with Google Pay');
    button.textContent = 'Pay with G Pay';
    button.style.cssText = 'width:100%;min-height:48px;background:#000;color:#fff;border:0;border-radius:4px';
    button.addEventListener('click', options.onClick);
    wrapper.appendChild(button);
    return wrapper;
  };
  PaymentsClient.prototype.prefetchPaymentData = function (request) {
    record.prefetched.push(request);
  };
  PaymentsClient.prototype.loadPaymentData = function (request) {
    var parameters;
    try {
      parameters = checkRequest(request);
    } catch (error) {
      return Promise.reject(error);
    }
    record.requests.push(request);
    return showSheet(request).then(function () {
      return {
        apiVersion: 2,
        apiVersionMinor: 0,
        email: request.emailRequired ? config.email : undefined,
        paymentMethodData: {
          type: 'CARD',
          description: `${config.network} •••• ${config.last4}`,
          info: { cardNetwork: config.network, cardDetails: config.last4 },
          tokenizationData: { type: 'PAYMENT_GATEWAY', token: tokenFor(parameters) },
        },
      };
    });
  };

  window.google = window.google || {};
  window.google.payments = { api: { PaymentsClient: PaymentsClient } };
})();
