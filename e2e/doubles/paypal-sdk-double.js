// A stand-in for PayPal's JS SDK (https://www.paypal.com/sdk/js), for browser tests only. It defines
// what the checkout page calls (paypal.FUNDING, paypal.Buttons with isEligible and render) the way
// PayPal documents them, draws a PayPal button in the container, and plays PayPal's window with a
// small dialog: "Pay Now" approves (onApprove with the order's ids), "Cancel and return" cancels
// (onCancel), and "Something went wrong" ends in onError, as PayPal's SDK does.
(function () {
  var script = document.currentScript;
  var query = script ? new URL(script.src).searchParams : new URLSearchParams();
  var record = (window.__paypalDouble = { query: Object.fromEntries(query.entries()), orders: [], approvals: [] });

  function windowDialog(orderId, options) {
    var dialog = document.createElement('dialog');
    dialog.setAttribute('aria-label', 'PayPal window');
    var heading = document.createElement('h2');
    heading.textContent = `PayPal (sandbox) — order ${orderId}`;
    dialog.appendChild(heading);
    function action(label, run) {
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = label;
      button.addEventListener('click', function () {
        dialog.close();
        dialog.remove();
        run();
      });
      dialog.appendChild(button);
    }
    action('Pay Now', function () {
      var data = { orderID: orderId, paymentToken: orderId, payerID: 'E2EPAYER', paymentID: `PAYID-${orderId}` };
      record.approvals.push(data);
      Promise.resolve(options.onApprove(data, {})).catch(function (error) {
        options.onError?.(error);
      });
    });
    action('Cancel and return', function () {
      options.onCancel?.({ orderID: orderId });
    });
    action('Something went wrong', function () {
      options.onError?.(new Error('PayPal window error'));
    });
    document.body.appendChild(dialog);
    dialog.showModal();
  }

  window.paypal = {
    FUNDING: { PAYPAL: 'paypal', VENMO: 'venmo', CARD: 'card' },
    Buttons: function (options) {
      return {
        isEligible: function () {
          return options.fundingSource === 'paypal';
        },
        render: function (container) {
          var button = document.createElement('button');
          button.type = 'button';
          button.setAttribute('aria-label', 'PayPal');
          button.textContent = 'PayPal';
          button.style.cssText = 'width:100%;min-height:48px;background:#ffc439;color:#111;border:0;border-radius:4px';
          button.addEventListener('click', function () {
            Promise.resolve(options.createOrder({}, {})).then(
              function (orderId) {
                record.orders.push(orderId);
                windowDialog(orderId, options);
              },
              function (error) {
                options.onError?.(error);
              },
            );
          });
          container.appendChild(button);
          return Promise.resolve();
        },
      };
    },
  };
})();
