// The launcher's words in the languages other than English (src/loader/agui-chat.js fetches
// this when a launcher is drawn on a page in one of them): its name ("Open chat: " + the
// title), the loading text, the failure text, Retry, and the default title. tests/view/i18n.rs
// keeps one entry per language of the chat's catalogs.
export default {
  de: ['Chat öffnen: ', 'Der Chat wird geladen…', 'Der Chat konnte nicht geladen werden.', 'Erneut versuchen', 'Chat'],
  fr: ['Ouvrir le chat\u00a0: ', 'Chargement du chat…', 'Le chat n’a pas pu être chargé.', 'Réessayer', 'Chat'],
  es: ['Abrir el chat: ', 'Cargando el chat…', 'No se pudo cargar el chat.', 'Reintentar', 'Chat'],
  pt: ['Abrir o chat: ', 'Carregando o chat…', 'Não foi possível carregar o chat.', 'Tentar novamente', 'Chat'],
  ja: ['チャットを開く：', 'チャットを読み込んでいます…', 'チャットを読み込めませんでした。', '再試行', 'チャット'],
  zh: ['打开聊天：', '正在加载聊天…', '无法加载聊天。', '重试', '聊天'],
  ar: ['فتح الدردشة: ', 'جارٍ تحميل الدردشة…', 'تعذّر تحميل الدردشة.', 'إعادة المحاولة', 'الدردشة'],
};
