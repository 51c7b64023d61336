placeholder mirror.js
