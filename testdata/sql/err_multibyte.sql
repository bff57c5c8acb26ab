SELECT 'héllo wörld', naïve FORM t
